/**
 * Where pushes go: uWebSockets.js topics in the server (`app.publish`, `app.numSubscribers`), a recorder in
 * unit tests. `subscribers` is checked before a push is rendered, so a topic nobody listens to costs one
 * lookup and no allocation.
 */
export interface Publisher {
  publish(topic: string, message: string): void;
  subscribers(topic: string): number;
}
