import { existsSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { attachedRequestBody } from "../../lib/server/http/fast-path-bodies.mjs";
import {
  addForwardedDefaults,
  chosenFastRoutes,
  FAST_ROUTES,
  fastRouteFor,
  isGzipWanted,
  isStrictFastPath,
  parseStartArgs,
  PRE_READ_MAX_BYTES,
  preReadLength,
  readDeclaredBody,
  requestUrl,
  toWebRequest,
} from "./fast-routes.mjs";

const ATTEMPT = "0b8e5639-5278-4fc8-8be6-44c853991670";
const EXAM = "0c9f1e2a-7b3d-4e5f-8a6b-1c2d3e4f5a6b";
const index = (name: string) => FAST_ROUTES.findIndex((route) => route.name === name);

describe("fastRouteFor", () => {
  it("takes the three sync POSTs, with the attempt id as Next.js would give it", () => {
    expect(fastRouteFor("POST", `/api/attempts/${ATTEMPT}/answers`)).toEqual({
      index: 0,
      params: { attemptId: ATTEMPT },
    });
    expect(fastRouteFor("POST", `/api/attempts/${ATTEMPT}/heartbeat`)).toMatchObject({ index: 1 });
    expect(fastRouteFor("POST", `/api/attempts/${ATTEMPT}/submit?x=1`)).toMatchObject({ index: 2 });
    // Not a UUID: the handler's own params schema answers 404, as under Next.
    expect(fastRouteFor("POST", "/api/attempts/nope/answers")).toEqual({ index: 0, params: { attemptId: "nope" } });
  });

  it("takes the start storm's join, start and channel, each with its own params", () => {
    expect(fastRouteFor("POST", "/api/session")).toEqual({ index: index("join"), params: {} });
    expect(fastRouteFor("POST", `/api/exams/${EXAM}/attempts`)).toEqual({
      index: index("start"),
      params: { examId: EXAM },
    });
    expect(fastRouteFor("GET", `/api/attempts/${ATTEMPT}/events?deviceId=d-1`)).toEqual({
      index: index("channel"),
      params: { attemptId: ATTEMPT },
    });
    expect(FAST_ROUTES.filter((route) => route.isStream).map((route) => route.name)).toEqual(["channel"]);
  });

  it("leaves everything else to Next.js", () => {
    for (const [method, url] of [
      ["GET", `/api/attempts/${ATTEMPT}/answers`],
      ["PUT", `/api/attempts/${ATTEMPT}/answers`],
      ["HEAD", `/api/attempts/${ATTEMPT}/heartbeat`],
      ["POST", `/api/attempts/${ATTEMPT}/answers/`],
      ["POST", `/api/attempts/${ATTEMPT}/events`],
      ["POST", `/api/attempts/${ATTEMPT}`],
      ["POST", `/api/attempts/%ZZ/answers`],
      ["POST", `/api/attempts/${ATTEMPT}%2Fx/answers`],
      ["POST", `/api/attempts//answers`],
      ["POST", `/api/attempts/a/b/answers`],
      ["POST", `/API/attempts/${ATTEMPT}/answers`],
      ["POST", `/api/admin/exams`],
      ["DELETE", "/api/session"],
      ["GET", "/api/session"],
      ["POST", "/api/session/"],
      ["POST", "/api/sessions"],
      ["GET", `/api/exams/${EXAM}/attempts`],
      ["POST", `/api/exams/${EXAM}/attempts/`],
      ["POST", `/api/exams/%41/attempts`],
      ["POST", `/api/exams//attempts`],
      ["HEAD", `/api/attempts/${ATTEMPT}/events`],
      ["POST", `/api/attempts/${ATTEMPT}/events`],
      ["GET", `/api/attempts/${ATTEMPT}/events/`],
      ["GET", `/join/abc`],
      [undefined, `/api/attempts/${ATTEMPT}/answers`],
      ["POST", undefined],
    ] as const) {
      expect(fastRouteFor(method, url), `${method} ${url}`).toBeNull();
    }
  });

  it("names route folders of this app, each with the route file a build compiles", () => {
    for (const route of FAST_ROUTES) {
      const source = join(process.cwd(), route.dir, "route.ts");
      expect(existsSync(source), source).toBe(true);
    }
  });
});

describe("chosenFastRoutes", () => {
  it("takes every route unless told otherwise", () => {
    const all = FAST_ROUTES.map((route) => route.name);
    for (const setting of [undefined, "", " ", "all"]) {
      expect([...(chosenFastRoutes(setting) as { names: Set<string> }).names]).toEqual(all);
    }
  });

  it("takes only the routes named, or none", () => {
    expect(chosenFastRoutes("autosave, heartbeat,submit")).toEqual({
      names: new Set(["autosave", "heartbeat", "submit"]),
    });
    expect(chosenFastRoutes("none")).toEqual({ names: new Set() });
  });

  it("refuses a name it does not know, naming it and the known ones", () => {
    const chosen = chosenFastRoutes("autosave,joins");
    expect(chosen).toHaveProperty("error");
    expect((chosen as { error: string }).error).toContain("joins");
    expect((chosen as { error: string }).error).toContain("channel");
  });
});

describe("parseStartArgs", () => {
  it("reads next start's port, hostname, keep-alive and directory", () => {
    expect(parseStartArgs(["-p", "3100", "-H", "0.0.0.0"], {})).toEqual({
      dir: undefined,
      port: 3100,
      hostname: "0.0.0.0",
      keepAliveTimeout: undefined,
    });
    expect(
      parseStartArgs(["/tmp/copy", "--port=3210", "--hostname", "127.0.0.1", "--keepAliveTimeout", "65000"], {}),
    ).toEqual({ dir: "/tmp/copy", port: 3210, hostname: "127.0.0.1", keepAliveTimeout: 65_000 });
  });

  it("takes PORT from the environment, 3000 without one, and a flag over PORT", () => {
    expect(parseStartArgs([], { PORT: "8080" })).toMatchObject({ port: 8080 });
    expect(parseStartArgs([], {})).toMatchObject({ port: 3000 });
    expect(parseStartArgs(["-p", "4000"], { PORT: "8080" })).toMatchObject({ port: 4000 });
  });

  it("gives anything else back to next start, which knows every option and says what is wrong", () => {
    for (const args of [
      ["--inspect"],
      ["--experimental-cpu-prof"],
      ["-p", "http"],
      ["-p", "70000"],
      ["-p"],
      ["--keepAliveTimeout", "-1"],
      ["-H", ""],
      ["one", "two"],
    ]) {
      expect(parseStartArgs(args, {}), args.join(" ")).toBeNull();
    }
    expect(parseStartArgs([], { PORT: "nope" })).toBeNull();
  });
});

describe("requestUrl", () => {
  it("puts the target on the Host the client used, as Next.js does", () => {
    expect(requestUrl("/api/attempts/x/answers?a=1", "exam.example.org", "localhost:3000")).toBe(
      "http://exam.example.org/api/attempts/x/answers?a=1",
    );
    expect(requestUrl("/p", "127.0.0.1:3100", "localhost:3000")).toBe("http://127.0.0.1:3100/p");
    expect(requestUrl("/p", "[::1]:3100", "localhost:3000")).toBe("http://[::1]:3100/p");
  });

  it("says https when X-Forwarded-Proto contains it, as Next.js does", () => {
    expect(requestUrl("/p", "exam.example.org", "localhost:3000", "https")).toBe("https://exam.example.org/p");
    expect(requestUrl("/p", "exam.example.org", "localhost:3000", "https, http")).toBe("https://exam.example.org/p");
    expect(requestUrl("/p", "exam.example.org", "localhost:3000", "http")).toBe("http://exam.example.org/p");
    expect(requestUrl("/p", undefined, "localhost:3000", "https")).toBe("https://localhost:3000/p");
  });

  it("falls back to the listening address for a Host that is not a host", () => {
    for (const host of [undefined, "", "evil.example/path", "a b", "user@host"]) {
      expect(requestUrl("/p", host, "localhost:3000"), String(host)).toBe("http://localhost:3000/p");
    }
  });
});

describe("isStrictFastPath", () => {
  it("is strict only when told 1, and refuses a value it does not know", () => {
    expect(isStrictFastPath(undefined)).toBe(false);
    expect(isStrictFastPath("")).toBe(false);
    expect(isStrictFastPath("0")).toBe(false);
    expect(isStrictFastPath("1")).toBe(true);
    expect(isStrictFastPath(" 1 ")).toBe(true);
    expect(isStrictFastPath("yes")).toEqual({ error: expect.stringContaining('HOLDFAST_FAST_PATH_STRICT is "yes"') });
  });
});

describe("addForwardedDefaults", () => {
  it("adds what Next.js adds when the client sent none", () => {
    const headers = new Headers({ host: "exam.example.org" });
    addForwardedDefaults(headers, { hostname: "localhost", port: 3000, remoteAddress: "203.0.113.7" });
    expect(Object.fromEntries(headers)).toEqual({
      host: "exam.example.org",
      "x-forwarded-host": "exam.example.org",
      "x-forwarded-port": "3000",
      "x-forwarded-proto": "http",
      "x-forwarded-for": "203.0.113.7",
    });
  });

  it("keeps what a proxy sent", () => {
    const sent = {
      "x-forwarded-host": "exam.example.org",
      "x-forwarded-port": "443",
      "x-forwarded-proto": "https",
      "x-forwarded-for": "198.51.100.1, 10.0.0.2",
    };
    const headers = new Headers(sent);
    addForwardedDefaults(headers, { hostname: "localhost", port: 3000, remoteAddress: "10.0.0.2" });
    expect(Object.fromEntries(headers)).toEqual(sent);
  });
});

describe("isGzipWanted", () => {
  const answer = {
    acceptEncoding: "gzip, deflate, br",
    contentType: "application/json",
    contentEncoding: null,
    cacheControl: null,
    length: 4_096,
  };

  it("gzips a JSON or text answer of 1 kB or more for a client that accepts gzip, as Next does", () => {
    expect(isGzipWanted(answer)).toBe(true);
    expect(isGzipWanted({ ...answer, contentType: "text/plain; charset=utf-8" })).toBe(true);
    expect(isGzipWanted({ ...answer, length: 1_024 })).toBe(true);
    expect(isGzipWanted({ ...answer, acceptEncoding: "br;q=1, GZIP;q=0.5" })).toBe(true);
    expect(isGzipWanted({ ...answer, acceptEncoding: "*" })).toBe(true);
  });

  it("leaves small, binary, encoded, no-transform answers alone, and clients that do not take gzip", () => {
    expect(isGzipWanted({ ...answer, length: 1_023 })).toBe(false);
    expect(isGzipWanted({ ...answer, contentType: "application/octet-stream" })).toBe(false);
    expect(isGzipWanted({ ...answer, contentType: null })).toBe(false);
    expect(isGzipWanted({ ...answer, contentEncoding: "br" })).toBe(false);
    expect(isGzipWanted({ ...answer, cacheControl: "no-cache, no-transform" })).toBe(false);
    expect(isGzipWanted({ ...answer, acceptEncoding: undefined })).toBe(false);
    expect(isGzipWanted({ ...answer, acceptEncoding: "identity" })).toBe(false);
    expect(isGzipWanted({ ...answer, acceptEncoding: "gzip;q=0, *" })).toBe(false);
    expect(isGzipWanted({ ...answer, acceptEncoding: "*;q=0" })).toBe(false);
    expect(isGzipWanted({ ...answer, acceptEncoding: "gzipx" })).toBe(false);
  });
});

describe("toWebRequest", () => {
  /** A request as Node's server gives it: a real socket, its raw headers, its body as sent. */
  async function incoming(raw: string): Promise<{ req: IncomingMessage; close: () => void }> {
    const server = createServer();
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const received = new Promise<IncomingMessage>((resolve) => server.once("request", resolve));
    const client = connect((server.address() as AddressInfo).port, "127.0.0.1", () => client.write(raw));
    const req = await received;
    return {
      req,
      close: () => {
        client.destroy();
        server.close();
      },
    };
  }

  it("builds the Request Next.js would: the target on the client's Host, every header, the forwarded defaults", async () => {
    const { req, close } = await incoming(
      `POST /api/attempts/${ATTEMPT}/answers?x=1 HTTP/1.1\r\nHost: exam.example.org\r\nCookie: a=1\r\nX-Custom: one\r\nX-Custom: two\r\nContent-Length: 2\r\n\r\n{}`,
    );
    try {
      const bytes = await readDeclaredBody(req);
      const request = toWebRequest(req, { fallbackHost: "localhost:3000", hostname: "localhost", port: 3000, bytes });
      expect(request.method).toBe("POST");
      expect(request.url).toBe(`http://exam.example.org/api/attempts/${ATTEMPT}/answers?x=1`);
      expect(request.headers.get("cookie")).toBe("a=1");
      expect(request.headers.get("x-custom")).toBe("one, two");
      expect(request.headers.get("x-forwarded-host")).toBe("exam.example.org");
      expect(request.headers.get("x-forwarded-port")).toBe("3000");
      expect(request.headers.get("x-forwarded-proto")).toBe("http");
      expect(request.headers.get("x-forwarded-for")).toBe("127.0.0.1");
      // The bytes the worker read go beside the Request (fast-path-bodies.mjs), not into it.
      expect(request.body).toBeNull();
      expect(Buffer.from(attachedRequestBody(request) ?? new Uint8Array()).toString()).toBe("{}");
    } finally {
      close();
    }
  });

  it("streams a body the worker did not read, and gives a GET none", async () => {
    const streamed = await incoming(
      "POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    );
    try {
      const request = toWebRequest(streamed.req, { fallbackHost: "localhost:3000", hostname: "localhost", port: 3000 });
      expect(attachedRequestBody(request)).toBeUndefined();
      expect(await request.text()).toBe("hello");
    } finally {
      streamed.close();
    }
    const controller = new AbortController();
    const get = await incoming(`GET /api/attempts/${ATTEMPT}/events HTTP/1.1\r\nHost: bad host\r\n\r\n`);
    try {
      const request = toWebRequest(get.req, {
        fallbackHost: "localhost:3000",
        hostname: "localhost",
        port: 3000,
        signal: controller.signal,
      });
      expect(request.url).toBe(`http://localhost:3000/api/attempts/${ATTEMPT}/events`);
      expect(request.body).toBeNull();
      controller.abort();
      expect(request.signal.aborted).toBe(true);
    } finally {
      get.close();
    }
  });
});

describe("preReadLength", () => {
  it("reads a POST's small body with a declared length before the handler", () => {
    expect(preReadLength("POST", { "content-length": "0" })).toBe(0);
    expect(preReadLength("POST", { "content-length": "312" })).toBe(312);
    expect(preReadLength("POST", { "content-length": String(PRE_READ_MAX_BYTES) })).toBe(PRE_READ_MAX_BYTES);
  });

  it("streams the rest to the handler, whose own cap and errors apply: no length, a long one, one that is not a number, chunked, not a POST", () => {
    expect(preReadLength("POST", {})).toBeNull();
    expect(preReadLength("POST", { "content-length": String(PRE_READ_MAX_BYTES + 1) })).toBeNull();
    expect(preReadLength("POST", { "content-length": "99999999999999" })).toBeNull();
    for (const declared of ["", "12a", "-1", "1e3", " 12", "0x10"])
      expect(preReadLength("POST", { "content-length": declared })).toBeNull();
    expect(preReadLength("POST", { "content-length": "12", "transfer-encoding": "chunked" })).toBeNull();
    expect(preReadLength("GET", { "content-length": "12" })).toBeNull();
    expect(preReadLength(undefined, { "content-length": "12" })).toBeNull();
  });
});

describe("readDeclaredBody", () => {
  /**
   * A real server whose handler reads each request's body with readDeclaredBody, and a raw socket that writes
   * the request in the pieces given (waiting between them, so the server sees several chunks).
   */
  async function readThrough(pieces: readonly (string | Buffer)[], options: { closeEarly?: boolean } = {}) {
    let read!: Promise<Buffer>;
    let received!: () => void;
    const isReceived = new Promise<void>((resolve) => (received = resolve));
    const server = createServer((req: IncomingMessage, res) => {
      read = readDeclaredBody(req);
      received();
      read.then(
        (body) => res.end(String(body.length)),
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    try {
      for (const piece of pieces) {
        socket.write(piece);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await isReceived;
      if (options.closeEarly) socket.destroy();
      return await read;
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  const head = (length: number) => `POST /api/x HTTP/1.1\r\nHost: a\r\nContent-Length: ${length}\r\n\r\n`;

  it("gives the declared bytes as one Buffer, however many chunks they came in", async () => {
    const bytes = Buffer.from('{"answers":[{"questionId":"q1","value":"汉字 é","version":3}]}');
    // Three pieces, the second cut inside a multi-byte character.
    const pieces = [bytes.subarray(0, 10), bytes.subarray(10, 42), bytes.subarray(42)];
    const read = await readThrough([Buffer.from(head(bytes.length)), ...pieces]);
    expect(read.equals(bytes)).toBe(true);
  });

  it("gives an empty Buffer for a declared length of 0", async () => {
    const read = await readThrough([head(0)]);
    expect(read).toBeInstanceOf(Buffer);
    expect(read.length).toBe(0);
  });

  it("rejects when the client goes away before the declared bytes arrived", async () => {
    await expect(readThrough([head(100), "only part of it"], { closeEarly: true })).rejects.toThrow();
  });
});
