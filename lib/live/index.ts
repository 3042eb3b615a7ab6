// Live status changes: the server-side bus (server-only) and the wire format it shares with the
// browser. Client components import '@/lib/live/protocol' directly.
export {
  REPLAY_CAPACITY,
  createLiveBus,
  currentEventId,
  eventsSince,
  getLiveBus,
  publishVerificationChange,
  subscribe,
  type LiveBus,
  type LiveEvent,
  type LiveListener,
  type Replay,
} from './bus';
export { LIVE_EVENTS_PATH, RESYNC_EVENT, VERIFICATION_EVENT, parseVerificationChange, type VerificationChange } from './protocol';
