/**
 * The journey's students' HTTP/1.1 client: kept-alive connections and the little of HTTP the
 * server's answers use (a status, Set-Cookie, a Content-Length or chunked body), as autocannon
 * writes its own rather than use node:http. The load generator shares the two cores with the
 * instances and PostgreSQL (decision 029), and node:http's agent, request and response objects
 * were much of its CPU per call (README.md, session 19). One request at a time on a connection;
 * a connection the server closed while idle is replaced once, as node:http's agent does.
 */
import net from 'node:net';

export interface Answer {
  status: number;
  bytes: Buffer;
  setCookie: string | undefined;
}

/** A response being read off a connection. */
class Reader {
  private head: Buffer | undefined;
  private status = 0;
  private setCookie: string | undefined;
  private length = -1;
  private chunked = false;
  private readonly body: Buffer[] = [];
  private buffered: Buffer = Buffer.alloc(0);

  /** Feeds bytes in; answers the response once it is whole (never with bytes left over). */
  feed(chunk: Buffer): Answer | undefined {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    if (!this.head) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      this.head = this.buffered.subarray(0, end);
      this.buffered = this.buffered.subarray(end + 4);
      this.readHead(this.head.toString('latin1'));
    }
    return this.chunked ? this.readChunks() : this.readLength();
  }

  private readHead(head: string): void {
    const lines = head.split('\r\n');
    this.status = Number(lines[0]?.split(' ')[1] ?? 0);
    for (let index = 1; index < lines.length; index++) {
      const line = lines[index] ?? '';
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') this.length = Number(value);
      else if (name === 'transfer-encoding') this.chunked = value.toLowerCase().includes('chunked');
      else if (name === 'set-cookie') this.setCookie ??= value;
    }
    if (!this.chunked && this.length === -1) this.length = 0;
  }

  private readLength(): Answer | undefined {
    if (this.buffered.length < this.length) return undefined;
    if (this.buffered.length > this.length) throw new Error('bytes after the response');
    return { status: this.status, bytes: this.buffered, setCookie: this.setCookie };
  }

  private readChunks(): Answer | undefined {
    for (;;) {
      const lineEnd = this.buffered.indexOf('\r\n');
      if (lineEnd === -1) return undefined;
      const size = parseInt(this.buffered.subarray(0, lineEnd).toString('latin1'), 16);
      if (size === 0) {
        // The last chunk, then no trailers: the blank line ends the response.
        if (this.buffered.length < lineEnd + 4) return undefined;
        return { status: this.status, bytes: Buffer.concat(this.body), setCookie: this.setCookie };
      }
      if (this.buffered.length < lineEnd + 2 + size + 2) return undefined;
      this.body.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
      this.buffered = this.buffered.subarray(lineEnd + 2 + size + 2);
    }
  }
}

/** Kept-alive connections to one server (host:port), one request at a time on each. */
export class HttpClient {
  private readonly idle: net.Socket[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  async send(method: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<Answer> {
    let reused = this.idle.pop();
    while (reused?.destroyed) reused = this.idle.pop();
    try {
      return await this.sendOn(reused ?? (await this.connect()), method, path, headers, body);
    } catch (error) {
      // A kept connection the server had closed: once more on a new one.
      if (reused && error instanceof ClosedBeforeAnswer) {
        return this.sendOn(await this.connect(), method, path, headers, body);
      }
      throw error;
    }
  }

  close(): void {
    for (const socket of this.idle.splice(0)) socket.destroy();
  }

  private connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, this.host, () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.setNoDelay(true);
      socket.once('error', reject);
      // An idle connection's reset (the server closing it) must not end the run: the next
      // request on it finds it closed and takes a new one.
      socket.on('error', () => undefined);
    });
  }

  private sendOn(
    socket: net.Socket,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const reader = new Reader();
      let received = false;
      const cleanUp = () => {
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', onError);
      };
      const onData = (chunk: Buffer) => {
        received = true;
        let answer: Answer | undefined;
        try {
          answer = reader.feed(chunk);
        } catch (error) {
          cleanUp();
          socket.destroy();
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        if (!answer) return;
        cleanUp();
        this.idle.push(socket);
        resolve(answer);
      };
      const onClose = () => {
        cleanUp();
        reject(received ? new Error('the connection closed mid-response') : new ClosedBeforeAnswer());
      };
      const onError = (error: Error) => {
        cleanUp();
        socket.destroy();
        reject(received ? error : new ClosedBeforeAnswer());
      };
      socket.on('data', onData);
      socket.once('close', onClose);
      socket.once('error', onError);
      let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${String(this.port)}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      if (body !== undefined) head += `content-length: ${String(Buffer.byteLength(body))}\r\n`;
      socket.write(body === undefined ? `${head}\r\n` : `${head}\r\n${body}`);
    });
  }
}

class ClosedBeforeAnswer extends Error {
  constructor() {
    super('the connection closed before an answer');
  }
}
