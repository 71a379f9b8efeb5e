// What an empty project shows instead of "No calls match": how to send its first trace, with
// this server's address and the project's name filled in.
import styles from './CallsPage.module.css';

export function FirstTrace({ projectId }: { projectId: string }) {
  const origin = window.location.origin;
  const pythonEnv = `pip install weave
export WANDB_BASE_URL=${origin}
export WANDB_API_KEY=any-key   # or a key from \`weft keys create\``;
  const python = `import weave
weave.init("${projectId}")

@weave.op
def hello(name: str) -> str:
    return "hello " + name

hello("weft")`;
  const jsEnv = `npm install weave
export WF_TRACE_SERVER_URL=${origin}
export WANDB_API_KEY=any-key`;
  const js = `const weave = require('weave');

async function main() {
  await weave.init('${projectId}');
  const hello = weave.op(async function hello(name) { return 'hello ' + name; });
  console.log(await hello('weft'));
}
main();`;
  const otlp = `export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/otel/v1/traces
export OTEL_EXPORTER_OTLP_TRACES_HEADERS="project_id=${projectId},Authorization=Basic $(printf api:any-key | base64)"`;
  return (
    <section className={styles.firstTrace} data-testid="first-trace">
      <h2>No calls in {projectId} yet</h2>
      <p>Send the first trace with the Weave SDK or any OpenTelemetry exporter; it shows here as it arrives.</p>
      <h3>Python</h3>
      <pre data-testid="first-trace-python-env">{pythonEnv}</pre>
      <pre data-testid="first-trace-python">{python}</pre>
      <h3>TypeScript / JavaScript</h3>
      <pre data-testid="first-trace-js-env">{jsEnv}</pre>
      <pre data-testid="first-trace-js">{js}</pre>
      <h3>OpenTelemetry (OTLP/HTTP)</h3>
      <pre data-testid="first-trace-otlp">{otlp}</pre>
    </section>
  );
}
