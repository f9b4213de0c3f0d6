import { describe, expect, it } from "vitest";
import { readCookie } from "../../../src/server/session";

describe("reading the session cookie", () => {
  it.each([
    ["a=1; tm_session=abc%20d; b=1", "abc d"],
    ["tm_session=x=y", "x=y"],
    ["other=1", null],
    ["", null],
  ])("%s → %s", (header, value) => {
    expect(readCookie(header, "tm_session")).toBe(value);
  });

  it.each(["tm_session=%E0%A4%A", "tm_session=%", "a=1; tm_session=%zz"])(
    "a malformed value (%s) reads as no cookie: signed out, not an error",
    (header) => {
      expect(readCookie(header, "tm_session")).toBeNull();
    },
  );
});
