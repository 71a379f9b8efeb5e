// A string value: markdown rendered as such (with a raw toggle), other text shown whole up to
// GATE characters; past that, a preview with "show all"
// and a download, so a megabyte string never lands in the DOM by accident.
import { useState } from 'react';
import { Markdown, looksLikeMarkdown } from './Markdown';
import styles from './render.module.css';

export const GATE = 100_000;
const PREVIEW = 4_000;

export function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function TextView({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const [raw, setRaw] = useState(false);
  if (text.length <= GATE && looksLikeMarkdown(text)) {
    return (
      <div className={styles.mdWrap}>
        <button type="button" className={styles.mdToggle} onClick={() => setRaw(!raw)} data-testid="markdown-toggle">
          {raw ? 'Markdown' : 'Raw'}
        </button>
        {raw ? <div className={styles.text}>{text}</div> : <Markdown text={text} />}
      </div>
    );
  }
  if (text.length <= GATE || all) return <div className={styles.text}>{text}</div>;
  return (
    <div data-testid="gated-text">
      <div className={styles.text}>{text.slice(0, PREVIEW)}…</div>
      <div className={styles.gate}>
        {text.length.toLocaleString('en-US')} characters.{' '}
        <button type="button" onClick={() => setAll(true)}>
          Show all
        </button>{' '}
        <button type="button" onClick={() => download(text, 'value.txt')}>
          Download
        </button>
      </div>
    </div>
  );
}
