import { z } from 'zod';

export const ROLES = ['admin', 'technician'] as const;
export type Role = (typeof ROLES)[number];

/** The session user shape the dashboard reads (spec section 3, "User (session)"). */
export interface PublicUser {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  isActive: boolean;
  createdAt: string;
}

export function toPublicUser(u: {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  isActive: boolean;
  createdAt: Date;
}): PublicUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    role: u.role,
    isActive: u.isActive,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Usernames are case-insensitive: "Admin" and "admin" are one account. Stored trimmed and lower-cased. */
export const normalizeUsername = (u: string) => u.trim().toLowerCase();

// Messages are the spec's (section 5, "Login and users").
export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(100),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});

export const registerUserSchema = z.object({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    .regex(/^[A-Za-z0-9._-]+$/, 'Username may only contain letters, numbers, dots, dashes and underscores'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
  // Optional: empty string or absent means no email.
  email: z
    .union([z.literal(''), z.null(), z.string().trim().email('Invalid email address').max(254)])
    .optional()
    .transform((v) => (v ? v : null)),
  role: z.enum(ROLES, { error: 'Role must be admin or technician' }).default('technician'),
});
export type RegisterUserInput = z.output<typeof registerUserSchema>;

export const userStatusSchema = z.object({
  isActive: z.boolean({ error: 'isActive must be true or false' }),
});

export const userIdSchema = z.string().uuid('User not found');
