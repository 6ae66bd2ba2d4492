/**
 * A loopback TCP proxy in front of a real server, for network faults: `cut()` drops every connection and
 * stops listening (new connections are refused, as from a server that went away), `restore()` listens again
 * on the same port. Nothing in between is simulated: the bytes are the real protocol's.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface FaultProxy {
  port: number;
  /** Drops all connections; refuses new ones until `restore()`. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  const handle = (client: Socket) => {
    const upstream = connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  let server: Server = createServer(handle);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address !== null ? address.port : port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      server.close(() => resolve());
    });
  return {
    port,
    cut: stop,
    async restore() {
      server = createServer(handle);
      await listen(port);
    },
    close: stop,
  };
}

/** The same database URL, through the proxy's port. */
export function throughProxy(url: string, proxy: FaultProxy): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(proxy.port);
  return parsed.toString();
}
