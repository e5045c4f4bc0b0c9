import { describe, expect, it } from 'vitest';
import { redact, TRANSCRIPT_FRAME_CHARS, TRANSCRIPT_FRAMES, transcriptOf } from '../../conformance/lib/transcript';

const token = 'se"cret-token';
const prefix = token.slice(0, -1);

describe('case transcripts', () => {
  it('redact the token and its prefix, as written and as JSON-escaped', () => {
    const text = `${JSON.stringify({ type: 'handshake', token })} ${token} ${prefix}x`;
    const out = redact(text, [token, prefix]);
    expect(out).not.toContain('cret-toke');
    expect(out.match(/‹redacted›/g)).toHaveLength(3);
    expect(redact('abc', ['', ''])).toBe('abc');
  });

  it('bound frames and frames per case, marking the runner’s handshake and never leaking a cut secret', () => {
    const big = 'x'.repeat(TRANSCRIPT_FRAME_CHARS - 5) + token + 'y'.repeat(5000);
    const conns = [
      {
        own: 2,
        traffic: [
          { direction: 'sent' as const, text: `{"token":${JSON.stringify(token)}}` },
          { direction: 'received' as const, text: '{"type":"handshake"}' },
          { direction: 'sent' as const, text: big },
        ],
      },
      { traffic: Array.from({ length: TRANSCRIPT_FRAMES }, () => ({ direction: 'received' as const, text: 'r' })) },
    ];
    const { entries, omitted } = transcriptOf(conns, [token, prefix]);
    expect(entries).toHaveLength(TRANSCRIPT_FRAMES);
    expect(omitted).toBe(3);
    expect(entries.slice(0, 3).map((e) => e.handshake)).toEqual([true, true, undefined]);
    expect(entries[2]!.length).toBe(big.length);
    expect(entries[2]!.text.length).toBeLessThanOrEqual(TRANSCRIPT_FRAME_CHARS);
    expect(entries.map((e) => e.text).join('')).not.toMatch(/se"cret|se\\"cret|cret-to/);
    expect(entries[3]).toMatchObject({ connection: 2, direction: 'received', text: 'r' });
  });
});
