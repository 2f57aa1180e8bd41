import { z } from 'zod';

/** Add-user dialog (spec section 5 "Login and users"). */
export const newUserSchema = z.object({
  username: z.string().trim().min(3, 'Username must be at least 3 characters'),
  password: z.string().min(6, 'Password must be at least 6 characters'),
  email: z
    .string()
    .trim()
    .pipe(z.union([z.literal(''), z.email('Invalid email address')])),
  role: z.enum(['admin', 'technician']),
});
export type NewUserValues = z.infer<typeof newUserSchema>;
