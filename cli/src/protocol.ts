// The protocol version the CLI is built for (spec/served.json, through generated/current.ts): its typed
// client, its params validators, and the spec folder scripts/build.ts embeds.
export {
  CURRENT_VERSION as PROTOCOL_VERSION,
  connect,
  type EventName,
  FRAMES,
  type IdeaClient,
  IdeaClosedError,
  IdeaProtocolError,
  IdeaTimeoutError,
} from '../../generated/current';
