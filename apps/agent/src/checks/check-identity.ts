import { execFileSync } from "node:child_process";

/**
 * Who the agent's checks run as. An agent started as root never runs a check as root: its shell
 * workers switch to AGENT_RUN_CHECKS_AS (default `nobody`), and it refuses to start when that user
 * does not exist or is root itself. Started as anyone else, checks run as that user.
 */

export interface CheckIdentity {
  user: string;
  uid: number;
  gid: number;
}

/** uid and gid of a user name, or null when there is no such user. */
export type UserLookup = (user: string) => { uid: number; gid: number } | null;

export const lookupUser: UserLookup = (user) => {
  try {
    const uid = Number(execFileSync("id", ["-u", "--", user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    const gid = Number(execFileSync("id", ["-g", "--", user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
};

export const DEFAULT_CHECK_USER = "nobody";

/** null: run checks as the agent's own user (it is not root). Throws (the agent does not start) when root has no one to drop to. */
export function checkIdentity(agentUid: number, configuredUser: string | undefined, lookup: UserLookup = lookupUser): CheckIdentity | null {
  if (agentUid !== 0) return null;
  const user = configuredUser?.trim() || DEFAULT_CHECK_USER;
  const found = lookup(user);
  if (!found) {
    throw new Error(
      `the agent runs as root and will not run checks as root: user ${JSON.stringify(user)} does not exist; create it or set AGENT_RUN_CHECKS_AS to an unprivileged user`,
    );
  }
  if (found.uid === 0 || found.gid === 0) {
    throw new Error(`AGENT_RUN_CHECKS_AS=${user} is root (uid ${found.uid}, gid ${found.gid}): name an unprivileged user`);
  }
  return { user, ...found };
}

/**
 * The whole environment a check sees: nothing of the agent's (its token) nor of whoever started
 * it (a server's DATABASE_URL, say).
 */
export const CHECK_ENVIRONMENT: Readonly<Record<string, string>> = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  LANG: "C",
  LC_ALL: "C",
};
