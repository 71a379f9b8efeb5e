// The OTLP/HTTP trace messages Weft reads and answers, as protobuf schema text written from
// the OpenTelemetry protocol specification (opentelemetry-proto v1: collector/trace/v1,
// trace/v1, common/v1, resource/v1; field numbers as there). Only what a trace export
// carries is declared; fields a newer spec adds are skipped by the decoder, as protobuf
// skips every unknown field.
//
// Written as edition 2023 with proto3's semantics (implicit presence, packed, open enums) and
// one difference: strings are not checked for valid UTF-8. Invalid bytes become U+FFFD, as
// they do in an OTLP/JSON body, instead of failing the whole export with a 400 (a span whose
// attribute some instrumentation cut mid-character is still a span); decoding is also faster
// (native UTF-8 slicing instead of protobufjs' checking decoder: ~2 us a span).
import protobuf from 'protobufjs';

const SCHEMA = `
edition = "2023";
package weft.otlp;
option features.utf8_validation = NONE;
option features.field_presence = IMPLICIT;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }

message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource {
  repeated KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ExportTraceServiceResponse { ExportTracePartialSuccess partial_success = 1; }
message ExportTracePartialSuccess { int64 rejected_spans = 1; string error_message = 2; }

message ResourceSpans {
  Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  fixed32 flags = 16;

  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
}
message Status {
  string message = 2;
  int32 code = 3;
}
`;

// Enums (SpanKind, StatusCode) are declared as int32: the numbers are what the spec fixes,
// and an unknown number from a newer sender stays a number instead of failing the decode.
const root = protobuf.parse(SCHEMA, { keepCase: false }).root;

export const ExportTraceServiceRequest = root.lookupType('weft.otlp.ExportTraceServiceRequest');
export const ExportTraceServiceResponse = root.lookupType('weft.otlp.ExportTraceServiceResponse');

/**
 * A decoded request: message objects with camelCase fields (only the fields on the wire are
 * own properties), 64-bit integers as Long objects, bytes as Buffers. Read as is (no
 * toObject copy): otlp-spans.ts reads it like parsed JSON.
 */
export function decodeProtobufRequest(body: Uint8Array): unknown {
  return ExportTraceServiceRequest.decode(body);
}

export function encodeProtobufResponse(rejected: number, message: string): Uint8Array {
  const payload =
    rejected > 0 || message !== '' ? { partialSuccess: { rejectedSpans: rejected, errorMessage: message } } : {};
  return ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject(payload)).finish();
}
