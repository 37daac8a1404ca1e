import Foundation
import PlaneKitStream
import Testing
@testable import PlaneKitView

/// The server with real sockets on loopback. Every read waits at most 30 s; nothing is timed.
@Suite("ViewServer", .serialized) struct ViewServerTests {
    @Test("a non-reading client, a garbage client and a client that talks do not change the stream")
    func badClients() throws {
        let bytes = try walkStream(frameCount: 60)
        let reference = runStream(bytes, hub: nil)

        // Points every frame (about 19 200 of them, ~300 kB a frame, 17 MB in all: far more than
        // the socket buffers hold for a client that never reads) and a small queue of lines
        // (16 KiB), which the lines of the frames after that pass.
        let hub = ViewHub(options: .init(queueByteLimit: 16 << 10, pointTarget: 20_000, pointInterval: .zero))
        let port = try ViewServer(hub: hub, address: .loopback(port: 0)).startInBackground()

        let sleeper = try RawWebSocket(port: port, receiveBuffer: 4096)
        try sleeper.handshake()
        let garbage = try RawWebSocket(port: port)
        try garbage.handshake()
        let talker = try RawWebSocket(port: port)
        try talker.handshake()
        try waitUntil { hub.statistics.viewers == 3 }

        try garbage.send([0xFF, 0xFF] + [UInt8](repeating: 0xA5, count: 62))  // reserved opcode, unmasked: not a frame
        try talker.send(RawWebSocket.textFrame("hello"))

        let run = runStream(bytes, hub: hub)
        #expect(run.frames == reference.frames)
        #expect(run.frames == 60)
        #expect(run.output == reference.output)

        #expect(garbage.waitForClose().ended)
        let talked = talker.waitForClose()
        #expect(talked.ended)
        #expect(talked.code == 1008)

        let statistics = hub.statistics
        #expect(statistics.frames == 60)
        #expect(statistics.pointMessages == 61)  // every frame, and once more at the end
        // The sleeper fell behind and had intermediate states dropped.
        #expect(statistics.overflows >= 1)
        #expect(statistics.droppedLines > 0)
        print("view: bad clients: \(run.frames) frames, \(run.lines.count) events as without a viewer; "
              + "\(statistics.overflows) overflows, \(statistics.droppedLines) lines dropped for the sleeper")

        // Once it reads, the sleeper catches up with the final state.
        var model = ViewerModel()
        #expect(sleeper.readLines { model.apply($0); return model.ended && model.pointMessages > 0 })
        var final = ViewerModel()
        for line in reference.lines { final.apply(line) }
        #expect(model.planes == final.planes)
        #expect(model.objects == final.objects)
    }

    @Test("100 viewers get the final state and do not change the stream")
    func hundredViewers() throws {
        let bytes = try walkStream(frameCount: 40)
        let reference = runStream(bytes, hub: nil)
        let hub = ViewHub()
        let port = try ViewServer(hub: hub, address: .loopback(port: 0)).startInBackground()
        var viewers: [RawWebSocket] = []
        for _ in 0..<100 {
            let viewer = try RawWebSocket(port: port)
            try viewer.handshake()
            viewers.append(viewer)
        }
        try waitUntil { hub.statistics.viewers == 100 }
        let run = runStream(bytes, hub: hub)
        #expect(run.frames == 40)
        #expect(run.output == reference.output)

        var final = ViewerModel()
        for line in reference.lines { final.apply(line) }
        var complete = 0
        for viewer in viewers {
            var model = ViewerModel()
            guard viewer.readLines(until: { model.apply($0); return model.ended }) else { continue }
            if model.planes == final.planes, model.objects == final.objects, model.cameraMessages >= 1 { complete += 1 }
        }
        #expect(complete == 100)
        #expect(hub.statistics.connections == 100)
        print("view: 100 viewers: \(run.frames) frames, \(run.lines.count) events as without; \(complete) viewers ended with the final state")
    }

    @Test("the page, its script, three.js from the given folder, and the snapshot over HTTP")
    func httpRoutes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("view-three-\(getpid())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("build"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let three = "var THREE = { REVISION: 'test' };\n"
        try three.write(to: folder.appendingPathComponent("build/three.min.js"), atomically: true, encoding: .utf8)

        let hub = ViewHub()
        _ = runStream(try walkStream(frameCount: 3), hub: hub)
        let server = ViewServer(hub: hub, address: .loopback(port: 0), threeDirectory: folder.path)
        #expect(server.missingThreeFiles.count == 1)  // no OrbitControls.js in it
        let port = try server.startInBackground()

        let page = try RawWebSocket.get(port: port, path: "/")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains(#"<script src="/three.min.js"></script>"#))
        let script = try RawWebSocket.get(port: port, path: "/view.js")
        #expect(script.status == 200)
        #expect(String(decoding: script.body, as: UTF8.self).contains("new WebSocket"))
        let served = try RawWebSocket.get(port: port, path: "/three.min.js")
        #expect(served.status == 200)
        #expect(served.body == Array(three.utf8))
        let missing = try RawWebSocket.get(port: port, path: "/OrbitControls.js")
        #expect(missing.status == 404)
        let snapshot = try RawWebSocket.get(port: port, path: "/snapshot.ndjson")
        #expect(snapshot.status == 200)
        #expect(String(decoding: snapshot.body, as: UTF8.self) == hub.snapshot().joined())
    }

    @Test("a port already taken gives one clear error")
    func portTaken() throws {
        let hub = ViewHub()
        let port = try ViewServer(hub: hub, address: .loopback(port: 0)).startInBackground()
        #expect(throws: ViewServerError.self) {
            _ = try ViewServer(hub: hub, address: .loopback(port: port)).startInBackground()
        }
    }
}

/// Waits (at most 30 s) until `condition` holds.
func waitUntil(_ condition: () -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: 30)
    while !condition() {
        guard Date() < deadline else { throw RawWebSocket.Failure(description: "condition not met within 30 s") }
        Thread.sleep(forTimeInterval: 0.01)
    }
}
