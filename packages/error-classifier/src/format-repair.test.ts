import { describe, expect, it } from 'vitest';
import { formatRepairOf } from './format-repair.js';

describe('formatRepairOf (docs/policy.md#what-each-reason-does)', () => {
  it.each([
    `{"error":{"message":"Invalid 'messages[2].tool_calls[0].id': string does not match pattern '^[a-zA-Z0-9_-]+$'."}}`,
    `{"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"}}`,
    `{"error":{"message":"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. tool_call_id is invalid"}}`,
    `{"error":{"code":400,"message":"Tool call id too long: at most 40 characters"}}`,
  ])('knows the tool call id repair for %s', (body) => {
    expect(formatRepairOf({ body })).toBe('tool_call_ids');
  });

  it.each([
    `{"error":{"message":"Invalid 'messages[0].content': expected a string"}}`,
    `{"error":{"message":"tools are not supported by this model"}}`,
  ])('has none for another format failure: %s', (body) => {
    expect(formatRepairOf({ body })).toBeUndefined();
  });
});
