// LangGraph JS run for real with OpenInference's LangChain instrumentation: a prebuilt ReAct
// agent (createReactAgent) with one tool on ChatOpenAI against the model stand-in, one memory
// thread over two turns, its spans exported (protobuf, batched) to a Weft. Shared by the HTTP
// test and the browser test.
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import * as callbackManager from '@langchain/core/callbacks/manager';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { MemorySaver } from '@langchain/langgraph';
import { z } from 'zod';
import type { FrameworkRig } from './agent-frameworks.js';
import { forecast, MODEL } from './model-standin.js';

export const QUESTIONS = [
  ['What is the weather in Paris?', 'Paris'],
  ['And in Berlin?', 'Berlin'],
] as const;

/** Two turns of one thread (`thread_id`, which OpenInference sends as session.id); the agent's replies. */
export async function runLangGraph(rig: FrameworkRig, project: string, threadId: string): Promise<string[]> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'langgraph-weather' }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: rig.tracesUrl, headers: rig.headers(project) })),
    ],
  });
  const instrumentation = new LangChainInstrumentation({ tracerProvider: provider });
  instrumentation.manuallyInstrument(callbackManager);
  try {
    const getWeather = tool(async ({ city }: { city: string }) => JSON.stringify(forecast(city)), {
      name: 'get_weather',
      description: 'The weather of a city',
      schema: z.object({ city: z.string() }),
    });
    const agent = createReactAgent({
      llm: new ChatOpenAI({ model: MODEL, apiKey: 'sk-standin', configuration: { baseURL: `${rig.model.url}/v1` } }),
      tools: [getWeather],
      name: 'weather_agent',
      checkpointSaver: new MemorySaver(),
      prompt: 'You report the weather.',
    });
    const replies: string[] = [];
    for (const [q] of QUESTIONS) {
      const out = await agent.invoke(
        { messages: [{ role: 'user', content: q }] },
        { configurable: { thread_id: threadId }, metadata: { user_id: 'user-1' } },
      );
      const last = out.messages[out.messages.length - 1];
      replies.push(String(last?.content ?? ''));
    }
    await provider.forceFlush();
    return replies;
  } finally {
    instrumentation.disable();
    await provider.shutdown();
  }
}
