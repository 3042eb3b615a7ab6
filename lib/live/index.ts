// Live status changes: the server-side feed and log (server-only) and the wire format they share
// with the browser. Client components import '@/lib/live/protocol' directly.
export {
  createLiveBus,
  currentEventId,
  eventsSince,
  getLiveBus,
  type LiveBus,
  type LiveEvent,
  type LiveListener,
  publishVerificationChange,
  type Replay,
  subscribe,
} from './bus';
export { REPLAY_LIMIT } from './event-log';
export { LIVE_EVENTS_PATH, parseVerificationChange, RESYNC_EVENT, VERIFICATION_EVENT, type VerificationChange } from './protocol';
