// The Claude Agent SDK run for real: its CLI (a native binary shipped inside the npm package
// @anthropic-ai/claude-agent-sdk-linux-x64) spawned by the SDK against the model stand-in's
// Anthropic Messages API, one in-process MCP tool, two turns of one session (the second with
// `resume`), traced by OpenInference's instrumentation (OTLP protobuf, batched) to a Weft. With
// `cliTelemetry`, the CLI's own OpenTelemetry goes to Weft's agent endpoint too. The CLI gets a
// scratch home and every non-essential request (updates, error reports) turned off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ClaudeAgentSDK from '@anthropic-ai/claude-agent-sdk';
import { ClaudeAgentSDKInstrumentation } from '@arizeai/openinference-instrumentation-claude-agent-sdk';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { z } from 'zod';
import type { FrameworkRig } from './agent-frameworks.js';
import { forecast } from './model-standin.js';

export const CLAUDE_MODEL = 'claude-sonnet-4-5';
export const QUESTIONS = [
  ['What is the weather in Paris?', 'Paris'],
  ['And in Berlin?', 'Berlin'],
] as const;

export interface ClaudeRun {
  readonly replies: string[];
  readonly sessionIds: string[];
}

/** The CLI's own telemetry, to Weft's agent endpoint in `project` (OTLP protobuf). */
function cliTelemetry(rig: FrameworkRig, project: string): Record<string, string> {
  return {
    CLAUDE_CODE_ENABLE_TELEMETRY: '1',
    CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: '1',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: rig.tracesUrl,
    OTEL_EXPORTER_OTLP_HEADERS: `project_id=${project}`,
    OTEL_LOG_USER_PROMPTS: '1',
    OTEL_LOG_TOOL_DETAILS: '1',
    OTEL_LOG_TOOL_CONTENT: '1',
  };
}

export async function runClaudeAgent(
  rig: FrameworkRig,
  project: string,
  opts: { cliTelemetry?: boolean } = {},
): Promise<ClaudeRun> {
  const home = mkdtempSync(join(tmpdir(), 'weft-claude-'));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'claude-weather' }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: rig.tracesUrl, headers: rig.headers(project) })),
    ],
  });
  const instrumentation = new ClaudeAgentSDKInstrumentation({ tracerProvider: provider });
  const sdk = instrumentation.manuallyInstrument(ClaudeAgentSDK) as typeof ClaudeAgentSDK;
  const weather = sdk.createSdkMcpServer({
    name: 'weather',
    version: '1.0.0',
    tools: [
      sdk.tool('get_weather', 'The weather of a city', { city: z.string() }, async ({ city }) => ({
        content: [{ type: 'text', text: JSON.stringify(forecast(city)) }],
      })),
    ],
  });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_BASE_URL: rig.model.url,
    ANTHROPIC_API_KEY: 'sk-ant-standin',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_TELEMETRY: opts.cliTelemetry ? '' : '1',
    // Belt and braces: a request to any host but loopback goes to a closed loopback port (the
    // CLI honours these: without the NO_PROXY entry its model calls are refused).
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    ...(opts.cliTelemetry ? cliTelemetry(rig, project) : {}),
  };
  try {
    const replies: string[] = [];
    const sessionIds: string[] = [];
    for (const [q] of QUESTIONS) {
      const resume = sessionIds[0];
      for await (const m of sdk.query({
        prompt: q,
        options: {
          model: CLAUDE_MODEL,
          cwd: home,
          env,
          settingSources: [],
          mcpServers: { weather },
          allowedTools: ['mcp__weather__get_weather'],
          tools: [],
          systemPrompt: 'You report the weather.',
          maxTurns: 4,
          ...(resume === undefined ? {} : { resume }),
        },
      })) {
        if (m.type === 'result') {
          sessionIds.push(m.session_id);
          replies.push(m.subtype === 'success' ? m.result : `error: ${m.subtype}`);
        }
      }
    }
    await provider.forceFlush();
    return { replies, sessionIds };
  } finally {
    instrumentation.disable();
    await provider.shutdown();
    rmSync(home, { recursive: true, force: true });
  }
}
