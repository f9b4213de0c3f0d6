/** A service item with a command and nothing else set, as the tests' configurations list them. */
export const item = (name: string, execStatement: string) => ({
  name,
  description: "",
  execStatement,
  thresholdClass: null,
  serviceItemClass: null,
  cacheMaxCount: null,
  policy: null,
});
