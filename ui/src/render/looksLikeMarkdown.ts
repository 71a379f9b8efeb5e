// Whether a text should be rendered as markdown; kept apart from Markdown.tsx so that a view
// can decide without loading the markdown renderer (react-markdown, ~165 KB).
/** Whether a text reads as markdown: headings, lists, fences, emphasis, links or tables. */
export function looksLikeMarkdown(text: string): boolean {
  if (text.length < 8) return false;
  return (
    /^#{1,6} \S/m.test(text) ||
    /^```/m.test(text) ||
    (/^\s*([-*+]|\d+\.) \S/m.test(text) && text.includes('\n')) ||
    /\*\*[^*\n]+\*\*/.test(text) ||
    /\[[^\]\n]+\]\([^)\s]+\)/.test(text) ||
    /^\|.+\|\s*$/m.test(text)
  );
}
