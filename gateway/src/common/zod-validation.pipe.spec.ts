import { BadRequestException } from '@nestjs/common';
import { z } from 'zod';
import { ZodValidationPipe } from './zod-validation.pipe';

describe('ZodValidationPipe', () => {
  const pipe = new ZodValidationPipe(z.object({ ticker: z.string().min(3), exchange: z.string() }));
  it('passes valid input through', () =>
    expect(pipe.transform({ ticker: 'BHP', exchange: 'ASX' })).toEqual({ ticker: 'BHP', exchange: 'ASX' }));
  it('answers 400 naming each bad field', () => {
    try {
      pipe.transform({ ticker: 'B' });
      throw new Error('expected a 400');
    } catch (e) {
      expect(e).toBeInstanceOf(BadRequestException);
      expect((e as BadRequestException).message).toMatch(/ticker: .*3[\s\S]*exchange: Required/);
    }
  });
});
