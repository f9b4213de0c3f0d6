/** A URL for display (import reports and warnings): passwords are not repeated. */
export function redactUrl(url: string): string {
  return url.replace(/(password=)[^&]*/gi, "$1***").replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
