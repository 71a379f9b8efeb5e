// Renders any value by its shape: chat messages, images and audio, text, or a JSON tree.
import { ChatView } from './ChatView';
import { chatMessages } from './chatMessages';
import { JsonTree } from './JsonTree';
import { mediaOf } from './media';
import { MediaView } from './MediaView';
import { NumberText } from './NumberText';
import { TextView } from './TextView';
import styles from './render.module.css';

export function ValueView({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    const media = mediaOf(value);
    return media ? <MediaView {...media} /> : <TextView text={value} />;
  }
  const chat = chatMessages(value);
  if (chat) return <ChatView messages={chat} />;
  if (typeof value === 'object' && value !== null) return <JsonTree value={value} />;
  if (typeof value === 'number') return <NumberText value={value} className={styles.scalar} />;
  return <span className={styles.scalar}>{JSON.stringify(value) ?? 'undefined'}</span>;
}
