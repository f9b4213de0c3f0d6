import { describe, expect, it } from "vitest";
import { type ItemDecision, itemDeploymentStatus, readItemDecision } from "../src/index.ts";

const draft: ItemDecision = {
  policy: null,
  recoveryMarginPercent: 5,
  minimumDurationSeconds: 0,
  stateSource: "worst",
  staleAfterIntervals: 3,
};

describe("itemDeploymentStatus", () => {
  it.each([
    { name: "nothing deployed", version: null, deployed: null, expected: { status: "not-deployed" } },
    {
      name: "the item not in the deployed version",
      version: 3,
      deployed: null,
      expected: { status: "deployed", version: 3, inDeployment: false, differs: true },
    },
    {
      name: "the draft as deployed",
      version: 3,
      deployed: draft,
      expected: { status: "deployed", version: 3, inDeployment: true, differs: false, changes: [] },
    },
    {
      name: "a changed margin",
      version: 4,
      deployed: { ...draft, recoveryMarginPercent: 0 },
      expected: {
        status: "deployed",
        inDeployment: true,
        differs: true,
        changes: [{ field: "recovery margin", before: "0 %", after: "5 %" }],
      },
    },
  ])("$name", ({ version, deployed, expected }) => {
    expect(itemDeploymentStatus(version, deployed as ItemDecision | null, draft)).toMatchObject(expected);
  });
});

describe("readItemDecision", () => {
  it("reads settings from versions before they existed as the defaults, and an unreadable policy as none", () => {
    expect(
      readItemDecision({
        policy: { nonsense: 1 },
        recoveryMarginPercent: null,
        minimumDurationSeconds: null,
        stateSource: null,
        staleAfterIntervals: null,
      }),
    ).toEqual({ policy: null, recoveryMarginPercent: 0, minimumDurationSeconds: 0, stateSource: "worst", staleAfterIntervals: 3 });
  });
});
