/**
 * The API's error shape: `{"type":"error","error":{"type":T,"message":M},"request_id":"req_..."}`,
 * one error type per HTTP status.
 */

/** HTTP status → the API's error type. */
export const ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

export interface ApiErrorBody {
  type: "error";
  error: { type: string; message: string };
  request_id: string;
}

export function errorBody(type: string, message: string, requestId: string): ApiErrorBody {
  return { type: "error", error: { type, message }, request_id: requestId };
}

/** An error answer before any response bytes: status, body and extra headers. */
export interface ErrorReply {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

export function errorReply(status: number, message: string, headers?: Record<string, string>): ErrorReply {
  const reply: ErrorReply = { status, type: ERROR_TYPE_BY_STATUS[status] ?? "api_error", message };
  if (headers) reply.headers = headers;
  return reply;
}
