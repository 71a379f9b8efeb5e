// An image or audio clip from a data URI.
import styles from './render.module.css';

export function MediaView({ kind, src }: { kind: 'image' | 'audio'; src: string }) {
  return kind === 'image' ? (
    <img className={styles.image} src={src} alt="" data-testid="media-image" />
  ) : (
    <audio controls src={src} data-testid="media-audio" />
  );
}
