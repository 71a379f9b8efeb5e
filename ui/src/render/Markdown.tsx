// Markdown as React elements (react-markdown + GFM tables and lists), never raw HTML; images
// are not loaded (they could reach other hosts); links open in a new tab without a referrer.
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import styles from './render.module.css';

export function Markdown({ text }: { text: string }) {
  return (
    <div className={styles.markdown} data-testid="markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        disallowedElements={['img']}
        unwrapDisallowed
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}

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
