import { z } from 'zod';

/** Request schemas of the public account pages (invitation, password reset, email confirmation). */

// Any string: a malformed link gets the same "not valid" page as an unknown one.
export const tokenParams = z.strictObject({ token: z.string().max(200).meta({ example: 'Zx8Qp2Lm9Rt4Vw6Yb1Nc3Df5Gh7Jk0Ls' }) });
const formText = z.string().max(2000).optional();
export const invitationForm = z.strictObject({ name: formText, password: formText, password_confirm: formText });
export const resetForm = z.strictObject({ password: formText, password_confirm: formText });
export const emptyForm = z.strictObject({});

export const pageAnswer = {
  mediaType: 'text/html',
  description: 'The page (HTML); the same page with the problem for a bad form, 404 for an unknown link',
};
