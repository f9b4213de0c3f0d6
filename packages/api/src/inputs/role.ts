import { z } from "zod";

/** A member's, an invitation's or an API token's role. */
export const roleSchema = z.enum(["viewer", "editor", "admin"]);
