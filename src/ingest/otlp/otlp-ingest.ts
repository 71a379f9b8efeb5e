// An OTLP export to calls: the project of each resource, every span mapped (span-to-call.ts)
// and written at once through the calls service; spans that cannot be read or stored are
// counted and described in the answer's partial_success, as the OTLP spec asks.
import { InvalidRequestError } from '../../api/errors.js';
import type { Caller, CallsService } from '../../service/calls/calls-service.js';
import type { OtlpExport, RejectedSpan } from './otlp-spans.js';
import type { ForeignCall } from '../../service/calls/call-parts.js';
import { spanToCall } from './span-to-call.js';

export interface ExportResult {
  readonly rejected: number;
  readonly message: string;
}

const PROJECT = /^[^/\u0000-\u001f]+\/[^/\u0000-\u001f]+$/;
/** As many rejections described in the answer (Weave also stops at 20). */
const DESCRIBED = 20;

function checked(projectId: string, source: string): string {
  if (!PROJECT.test(projectId))
    throw new InvalidRequestError(
      `${source} must be "<entity>/<project>", got ${JSON.stringify(projectId.slice(0, 200))}`,
    );
  return projectId;
}

/**
 * The project of each ResourceSpans: the project_id header for all of them, else the
 * resource's wandb.entity and wandb.project (wandb.project may itself be "entity/project").
 */
export function resourceProjects(exp: OtlpExport, header: string | undefined): string[] {
  if (header !== undefined && header !== '') {
    const id = checked(header, 'The project_id header');
    return exp.resources.map(() => id);
  }
  return exp.resources.map((r, i) => {
    const project = r.resource['wandb.project'];
    const entity = r.resource['wandb.entity'];
    if (typeof project === 'string' && project.includes('/'))
      return checked(project, `resourceSpans[${i}]'s wandb.project`);
    if (typeof project === 'string' && project !== '' && typeof entity === 'string' && entity !== '') {
      return checked(`${entity}/${project}`, `resourceSpans[${i}]'s wandb.entity and wandb.project`);
    }
    throw new InvalidRequestError(
      'No project: send the project_id header ("<entity>/<project>") or set the resource attributes wandb.entity and wandb.project',
    );
  });
}

const describe = (s: Pick<RejectedSpan, 'name' | 'traceId' | 'spanId'>, reason: string) =>
  `Rejected span (name=${JSON.stringify(s.name)} trace_id=${s.traceId} span_id=${s.spanId}): ${reason}`;

export async function ingestExport(
  exp: OtlpExport,
  projects: readonly string[],
  calls: CallsService,
  caller: Caller,
): Promise<ExportResult> {
  const reasons = exp.rejected.map((r) => describe(r, r.reason));
  const finished: ForeignCall[] = [];
  exp.resources.forEach((r, i) => {
    for (const span of r.spans) finished.push(spanToCall(span, r.resource, projects[i]!));
  });
  const { rejected } = finished.length > 0 ? await calls.writeFinished(finished, caller) : { rejected: [] };
  for (const r of rejected) {
    const c = finished[r.index]!;
    reasons.push(describe({ name: c.op_name, traceId: c.trace_id, spanId: c.id }, r.reason));
  }
  const more = reasons.length > DESCRIBED ? ` (and ${reasons.length - DESCRIBED} more)` : '';
  return { rejected: reasons.length, message: reasons.slice(0, DESCRIBED).join('; ') + more };
}
