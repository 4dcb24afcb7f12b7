import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankGuesses } from './guesses.js';

/** The text with every run of spaces made one, to compare what is left. */
const left = (text: string): string => blankGuesses(text).replace(/ {2,}/g, ' ');

describe('blankGuesses (docs/policy.md, "Guesses and conditions name no cause")', () => {
  it('returns the very same string when the text holds no guess', () => {
    const text = 'rate limit exceeded. please try again in 20s.';
    expect(blankGuesses(text)).toBe(text);
  });

  it('blanks a hedge whose sentence offers alternatives, up to the sentence end', () => {
    expect(left('translation failed. this may be due to a network issue, an invalid api key, or api usage limits. error: connect econnrefused')).toBe(
      'translation failed. this . error: connect econnrefused',
    );
    expect(left('the request took too long, possibly due to server overload or network issues.')).toBe('the request took too long, .');
  });

  it('keeps a hedge over one cause: the sender explains what it states', () => {
    const text = 'openai encountered a server error, possibly due to high server load. try again later.';
    expect(blankGuesses(text)).toBe(text);
  });

  it('blanks Chinese guesses up to the sentence end, across the line breaks of a terminal', () => {
    expect(left('此翻译引擎不可用，可能是密钥错误，也可能是请求过快。\n可以尝试其他翻译引擎')).toBe('此翻译引擎不可用， 。\n可以尝试其他翻译引擎');
    expect(left('服务器拒绝了你的 api key。可能是 key\n错误或已过期，也可能是服务端出现瞬时鉴权问题。请稍后再试')).toBe('服务器拒绝了你的 api key。 。请稍后再试');
  });

  it('blanks a header over a list of causes up to where the failure is quoted again', () => {
    expect(left('rejected with error code 429. here are the possible reasons: 1. you are sending requests too quickly; 2. the model is overloaded. here is the error message: rate limit of 40,000 tokens per minute')).toBe(
      'rejected with error code 429. here are the here is the error message: rate limit of 40,000 tokens per minute',
    );
    expect(left('process exited. common causes: • invalid or missing api key • incorrect base url • network issues')).toBe('process exited. ');
    expect(left('модель не найдена. возможные причины: сервер перегружен, неверный ключ')).toBe('модель не найдена. ');
  });

  it('keeps a header over one cause', () => {
    const text = '错误可能原因： 请求速度过快，被服务商限制了访问频率';
    expect(blankGuesses(text)).toBe(text);
  });

  it('blanks a condition on a status to the end of its sentence or line', () => {
    expect(left('request failed with status code 429\nnotice: if the status code is 400, the file exceeds token limit.\nnotice: if the status code is 404, you do not have access to the model.')).toBe(
      'request failed with status code 429\nnotice: .\nnotice: .',
    );
    expect(left('请求失败。如果状态码为 413，说明文件超过了上下文长度。请重试')).toBe('请求失败。 。请重试');
    expect(left('upload failed. note: if you get http 413, the file is too large. retry')).toBe('upload failed. note: . retry');
  });

  it('does not read "if" inside a word, nor a condition that names no status', () => {
    const text = 'the diff status 404 page. check if the model exists.';
    expect(blankGuesses(text)).toBe(text);
  });

  it('never moves an offset: the blanked text keeps the length, and every kept character stays where it was', () => {
    const pieces = fc.constantFrom(
      'may be due to',
      'possibly caused by',
      ' or ',
      ', ',
      '. ',
      '\n',
      'possible causes:',
      'if the status code is 404',
      '可能是',
      '也可能',
      '。',
      'rate limit',
      'error: ',
      ' | ',
      'x',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const blanked = blankGuesses(text);
        expect(blanked.length).toBe(text.length);
        for (let index = 0; index < text.length; index += 1) {
          if (blanked[index] !== ' ') expect(blanked[index]).toBe(text[index]);
        }
      }),
    );
  });

  it('blanks at most 600 characters after one lead, and keeps the rest', () => {
    const hedge = `this may be due to ${'x or '.repeat(1000)}`;
    const end = 'this may be due to'.length + 600;
    const blanked = blankGuesses(hedge);
    expect(blanked.slice(0, 5)).toBe('this ');
    expect(blanked.slice(5, end).trim()).toBe('');
    expect(blanked.slice(end)).toBe(hedge.slice(end));
  });
});
