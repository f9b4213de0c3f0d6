// The signed-in pages' not-found is the root one: one page, one text.
export { default } from "../not-found";
