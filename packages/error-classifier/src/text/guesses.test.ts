import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankGuesses, mayHoldGuesses } from './guesses.js';
import { TrigramSet } from './trigrams.js';

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

  it('reads guesses in Spanish, Portuguese, French, German and Japanese too', () => {
    expect(left('no se pudo traducir. puede deberse a una clave api inválida o a un límite de uso. error: connect etimedout')).toBe(
      'no se pudo traducir. . error: connect etimedout',
    );
    expect(left('falha na solicitação. pode ser causado por uma chave inválida ou falta de créditos. status 503')).toBe('falha na solicitação. . status 503');
    expect(left('échec. cela peut être dû à une clé invalide ou à une limite de débit. timeout')).toBe('échec. cela . timeout');
    expect(left('fehler. das könnte an einem ungültigen schlüssel oder am ratenlimit liegen. timeout')).toBe('fehler. das . timeout');
    expect(left('posibles causas: clave inválida, límite de uso. error: 503 service unavailable')).toBe(' error: 503 service unavailable');
    expect(left('原因として考えられるのは、apiキーの誤りまたは利用上限です。エラー内容：request timed out')).toBe(' 。エラー内容：request timed out');
    expect(left('si el error persiste, la clave puede ser inválida o estar vencida. 504 gateway timeout')).toBe(' . 504 gateway timeout');
  });

  it('keeps one hedged cause in those languages: the sender explains what it states', () => {
    const text = 'la cuenta fue suspendida, posiblemente debido al límite de gasto mensual.';
    expect(blankGuesses(text)).toBe(text);
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

  it('ends a hedge at a semicolon, and reads no alternative in a remark in parentheses', () => {
    const semicolon = 'request failed, possibly due to rate limiting; retry in 30 seconds.';
    expect(blankGuesses(semicolon)).toBe(semicolon);
    const remark = 'request failed, likely due to an invalid api key (check or rotate it in your settings).';
    expect(blankGuesses(remark)).toBe(remark);
  });

  it('blanks only the clause of a hedge that opens its sentence', () => {
    expect(left('possibly due to maintenance or high load, the service is unavailable (503).')).toBe(' , the service is unavailable (503).');
  });

  it('reads a singular header as a list only over alternatives or numbered items', () => {
    const one = 'possible cause: your credit balance is too low, please top up your account.';
    expect(blankGuesses(one)).toBe(one);
    expect(left('可能的原因：1. api密钥错误 2. 请求过快 3. 余额不足')).toBe(' ');
    expect(left('可能的原因：密钥错误、请求过快。错误信息：余额不足')).toBe(' 。错误信息：余额不足');
  });

  it('blanks a condition on the failure persisting, and ends a Chinese condition where an English error follows', () => {
    expect(left('request timed out. if the error persists, your api key may be invalid or your quota exhausted.')).toBe('request timed out. .');
    expect(left('如果状态码为400，请检查请求参数 error 429: too many requests')).toBe(' error 429: too many requests');
  });

  it('does not read "if" inside a word, nor a condition that names no status', () => {
    const text = 'the diff status 404 page. check if the model exists.';
    expect(blankGuesses(text)).toBe(text);
  });

  it('is spared only for texts it would return as they are (the trigram pre-test never hides a lead)', () => {
    const pieces = fc.constantFrom(
      'may be due to', 'might be because', 'could be', 'can happen if', 'possibly caused by', 'perhaps due to', 'likely reason:',
      'possible causes:', 'common reasons include', 'if the status code is 404', 'when you get 429', 'if the error persists',
      'возможно, ', 'возможные причины', ' or ', ', ', '. ', 'rate limit', 'x', ' | ', 'if', 'may', 'maybe',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        if (blankGuesses(text) !== text) expect(mayHoldGuesses(new TrigramSet(text), false)).toBe(true);
      }),
    );
    expect(mayHoldGuesses(new TrigramSet('rate limit exceeded. retry in 20s.'), false)).toBe(false);
    expect(mayHoldGuesses(new TrigramSet('请求过快'), true)).toBe(true);
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

  it('reads at most 32 leads in one text and leaves the rest as it is', () => {
    // each of these leads offers one cause, so none is blanked, but each is read
    const text = `${'it may be due to x. '.repeat(40)}this may be due to a or b.`;
    expect(blankGuesses(text)).toBe(text);
    expect(blankGuesses(`${'it may be due to x. '.repeat(31)}this may be due to a or b.`)).toMatch(/x\. this {21}\.$/);
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
