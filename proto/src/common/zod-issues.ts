import type { z } from 'zod';

/**
 * The one way a zod failure becomes text: `path: message` per issue (an issue on the whole value says
 * `root: message`, or just the message without a root name), joined with '; '. Used by the gateway's
 * validation pipe, config loading, the requester, the outbox and the message validation of services.
 */
export function zodIssueLines(error: z.ZodError, root?: string): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.join('.') || root;
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

export const formatZodIssues = (error: z.ZodError, root?: string): string =>
  zodIssueLines(error, root).join('; ');
