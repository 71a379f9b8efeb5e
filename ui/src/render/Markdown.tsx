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

export { looksLikeMarkdown } from './looksLikeMarkdown';
