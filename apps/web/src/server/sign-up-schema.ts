import { MIN_PASSWORD_LENGTH, passwordWeakness } from "@tidemark/auth";
import { z } from "zod";

/**
 * A new account: either with a new organisation it administers, or joining the organisation of
 * an invitation (which must have been sent to the same address). The password must not be easy to
 * guess (NIST SP 800-63B: @tidemark/auth's passwordWeakness), judged also against the user's own
 * name, address and organisation.
 */
export const signUpSchema = z
  .object({
    name: z.string().trim().min(1, "your name is required").max(100),
    email: z.email("enter an email address").max(320),
    password: z.string().min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
    organizationName: z.string().trim().min(2, "at least 2 characters").max(100).optional(),
    invitation: z.string().trim().min(10).max(200).optional(),
  })
  .refine((v) => v.invitation || v.organizationName, { message: "name your organisation", path: ["organizationName"] })
  .superRefine((v, ctx) => {
    if (v.password.length < MIN_PASSWORD_LENGTH) return;
    const weakness = passwordWeakness(v.password, [v.email, v.name, v.organizationName ?? ""]);
    if (weakness) ctx.addIssue({ code: "custom", path: ["password"], message: weakness });
  });
