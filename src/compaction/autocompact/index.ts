/**
 * Autocompact, tier 4: when a summary is due, the cheaper clear instead, the circuit breaker. The names used outside
 * src/compaction/.
 */

export { countCompactionFailure, newAutoCompactSession } from "./breaker.js";
