// An op's source, read from the file its version names (/files/content) and highlighted.
// Token colours come from this module's CSS per theme, not from a Prism theme object, so
// they follow the theme toggle.
import { Highlight, type PrismTheme } from 'prism-react-renderer';
import { ErrorBanner } from '../shell/ErrorBanner';
import { useFileText } from './objectsApi';
import styles from './OpCode.module.css';

const NO_THEME: PrismTheme = { plain: {}, styles: [] };
/** Beyond this, the code shows as plain text: highlighting costs time per character. */
const HIGHLIGHT_LIMIT = 200_000;

/** Python for the Python SDK's files; the TypeScript SDK stores the function's JavaScript. */
export function languageOf(code: string): 'python' | 'javascript' {
  if (
    /^\s*(?:async\s+)?function\b|=>|^\s*(?:const|let|var)\s/m.test(code) &&
    !/^\s*(?:async\s+)?def\s+\w+\s*\(/m.test(code)
  )
    return 'javascript';
  return 'python';
}

/**
 * A function's own text (what the TypeScript SDK stores) keeps the indentation it had in
 * its file on every line but the first: take that common indentation off.
 */
export function dedentTail(code: string): string {
  const lines = code.split('\n');
  if (lines.length < 2 || /^\s/.test(lines[0]!)) return code;
  const indents = lines
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => /^ */.exec(l)![0].length);
  const cut = Math.min(...indents);
  if (!Number.isFinite(cut) || cut === 0) return code;
  return [lines[0], ...lines.slice(1).map((l) => l.slice(Math.min(cut, /^ */.exec(l)![0].length)))].join('\n');
}

export function OpCode({ projectId, file }: { projectId: string; file: { name: string; digest: string } }) {
  const q = useFileText(projectId, file.digest);
  if (q.isPending)
    return (
      <p className={styles.muted} data-testid="loading">
        Loading code…
      </p>
    );
  if (q.isError) return <ErrorBanner error={q.error} onRetry={() => void q.refetch()} />;
  const code = dedentTail(q.data.replace(/\n+$/, ''));
  const language = languageOf(code);
  const copy = () => void navigator.clipboard?.writeText(code).catch(() => undefined);
  return (
    <figure className={styles.figure} data-testid="op-code" data-language={language}>
      <figcaption className={styles.caption}>
        <span className={styles.fileName}>{file.name}</span>
        <span className={styles.muted}>
          {language === 'python' ? 'Python' : 'JavaScript'} · {code.split('\n').length} lines
        </span>
        <span className={styles.spacer} />
        <button type="button" onClick={copy} title="Copy the code">
          Copy
        </button>
      </figcaption>
      {code.length > HIGHLIGHT_LIMIT ? (
        <pre className={styles.code}>{code}</pre>
      ) : (
        <Highlight code={code} language={language} theme={NO_THEME}>
          {({ tokens, getLineProps, getTokenProps }) => (
            <pre className={styles.code}>
              {tokens.map((line, i) => {
                const { key: _k, ...lineProps } = getLineProps({ line });
                return (
                  <div key={i} {...lineProps} className={styles.line}>
                    <span className={styles.lineNo} aria-hidden>
                      {i + 1}
                    </span>
                    <span>
                      {line.map((token, j) => {
                        const { key: _t, ...tokenProps } = getTokenProps({ token });
                        return <span key={j} {...tokenProps} />;
                      })}
                    </span>
                  </div>
                );
              })}
            </pre>
          )}
        </Highlight>
      )}
    </figure>
  );
}
