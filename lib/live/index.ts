// Live status changes: the server-side bus (server-only) and the wire format it shares with the
// browser. Client components import '@/lib/live/protocol' directly.
export {
  createLiveBus,
  currentEventId,
  eventsSince,
  getLiveBus,
  type LiveBus,
  type LiveEvent,
  type LiveListener,
  publishVerificationChange,
  REPLAY_CAPACITY,
  type Replay,
  subscribe,
} from './bus';
export { LIVE_EVENTS_PATH, parseVerificationChange, RESYNC_EVENT, VERIFICATION_EVENT, type VerificationChange } from './protocol';
