/**
 * Where pushes go: uWebSockets.js topics in the server (ws-host.ts), a recorder in unit tests.
 *
 * A topic is `channel|key` (channels.ts topicOf). `active(channel)` says whether any topic of the channel has a
 * subscriber; pushers check it first, so a channel nobody listens to costs one Map lookup per command and no
 * allocation (no topic string is built). `subscribers(topic)` is checked before a push is rendered.
 */
export interface Publisher {
  publish(topic: string, message: string): void;
  subscribers(topic: string): number;
  /** True when some topic of `channel` has at least one subscriber. */
  active(channel: string): boolean;
}
