/**
 * planmode/serve: the plan server. A JSON API over a set of tools (runs, their events as
 * Server-Sent Events, approvals held for a person, agents in plan mode) and an approval page.
 */
export { startServer, type PlanServer } from './server.js';
export { DEFAULT_MAX_BODY_BYTES, type ServeOptions } from './serve-options.js';
export { SERVE_ERROR_CODES, type ServeErrorCode } from './http-error.js';
export { isLoopbackHost } from './auth.js';
