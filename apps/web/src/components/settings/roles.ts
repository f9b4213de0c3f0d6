export const ROLES = ["viewer", "editor", "admin"] as const;
export type RoleName = (typeof ROLES)[number];

export const ROLE_HELP: Record<RoleName, string> = {
  viewer: "reads everything",
  editor: "edits configuration and thresholds, deploys",
  admin: "also manages members, agents and tokens",
};
