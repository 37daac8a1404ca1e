import Foundation
import PlaneKitTestSupport
import Testing

/// A host killed mid-session hands the space over to the earliest joiner (real processes on
/// loopback; every wait bounded).
@Suite("Host hand-over", .serialized)
struct HostHandoverTests {
    /// The records of a synthetic stream split after its `frames`-th frame: the part before
    /// (`first`) and the rest, written beside `file`.
    static func split(_ file: URL, afterFrames frames: Int) throws -> (first: URL, rest: URL) {
        let bytes = try Data(contentsOf: file)
        var offset = 0, seen = 0
        while seen < frames, let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) {
            let header = try JSONSerialization.jsonObject(with: bytes[offset..<newline]) as? [String: Any]
            offset = newline + 1 + (header?["bytes"] as? Int ?? 0)
            if header?["type"] as? String == "frame" { seen += 1 }
        }
        try #require(seen == frames, "\(file.lastPathComponent) has \(seen) frames, fewer than \(frames)")
        let first = file.appendingPathExtension("1"), rest = file.appendingPathExtension("2")
        try bytes[..<offset].write(to: first)
        try bytes[offset...].write(to: rest)
        return (first, rest)
    }

    /// A joiner's shell script: the stream's first part, a pause until `gate` exists (at most
    /// 90 s), then the rest.
    static func joiner(_ name: String, parts: (first: URL, rest: URL), gate: URL, port: Int) -> String {
        "{ cat '\(parts.first.path)'; i=0; while [ ! -e '\(gate.path)' ] && [ $i -lt 1800 ]; do sleep 0.05; i=$((i+1)); done; cat '\(parts.rest.path)'; }"
            + " | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret '\(SharedSpaceTests.secret)' --name \(name) --linger 3"
    }

    @Test func theEarliestJoinerTakesOverWhenTheHostIsKilledAndNoObjectIsLost() throws {
        let directory = try SharedSpaceTests.directory("handover")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Anna taps at frame 40 and pauses after 50; Bert pauses after 35 and taps at 40, after the hand-over.
        let anna = directory.appendingPathComponent("anna.pk"), bert = directory.appendingPathComponent("bert.pk")
        for file in [anna, bert] {
            let synth = try SpaceProcess("exec \"$PK\" synth --seed 10 --frames 80 --taps 1 --stream-output '\(file.path)'",
                                         name: "synth-\(file.lastPathComponent)", in: directory)
            #expect(synth.wait(seconds: 60) == 0)
        }
        let annaParts = try Self.split(anna, afterFrames: 50), bertParts = try Self.split(bert, afterFrames: 35)
        let gate = directory.appendingPathComponent("go")

        let (host, port) = try SharedSpaceTests.host(frames: 40, taps: 1, in: directory)
        let a = try SpaceProcess(Self.joiner("anna", parts: annaParts, gate: gate, port: port), name: "anna", in: directory)
        // Anna's object reaches the host before Bert comes: Anna is peer 1, Bert peer 2.
        #expect(host.waitForEvent(seconds: 60) { $0["peer"] as? String == "anna" && $0["event"] as? String == "objectAdded" },
                "\(a.errorText)")
        let bertGate = directory.appendingPathComponent("go-bert")
        let b = try SpaceProcess(Self.joiner("bert", parts: bertParts, gate: bertGate, port: port), name: "bert", in: directory)
        #expect(b.waitForEvent(seconds: 60) { $0["event"] as? String == "camera" && $0["frame"] as? Int == 34 }, "\(b.errorText)")
        #expect(a.waitForEvent(seconds: 60) { $0["event"] as? String == "camera" && $0["frame"] as? Int == 49 }, "\(a.errorText)")

        // The host dies without a word; Bert goes on first and rejoins Anna, then Anna (whose
        // frames would otherwise all be over before Bert is back) goes on too.
        host.interrupt(signal: SIGKILL)
        #expect(host.wait(seconds: 10) != 0)
        #expect(FileManager.default.createFile(atPath: bertGate.path, contents: nil))
        #expect(b.waitForEvent(seconds: 30) { $0["event"] as? String == "hostChanged" }, "\(b.errorText)")
        #expect(FileManager.default.createFile(atPath: gate.path, contents: nil))
        #expect(a.wait(seconds: 60) == 0, "\(a.errorText)")
        #expect(b.wait(seconds: 60) == 0, "\(b.errorText)")

        let annaEvents = a.events, bertEvents = b.events
        for (events, who) in [(annaEvents, "anna"), (bertEvents, "bert")] {
            #expect(events.named("hostChanged").map { $0["peer"] as? String } == ["anna"], "at \(who)")
            #expect(events.named("peerLeft").contains { $0["peer"] as? String == "host" }, "at \(who)")
        }
        // Every object at both, with the same identifiers, at the same place.
        let atAnna = SharedSpaceTests.finalPositions(annaEvents), atBert = SharedSpaceTests.finalPositions(bertEvents)
        #expect(Set(atAnna.keys) == ["object-1", "object-1000001", "object-2000001"], "\(atAnna.keys)")
        #expect(Set(atBert.keys) == Set(atAnna.keys), "\(atBert.keys)")
        for (id, p) in atAnna {
            let q = try #require(atBert[id])
            let d = p - q
            #expect((d * d).sum().squareRoot() < 0.01, "\(id): \(p) at anna, \(q) at bert")
        }
        // Poses flow between the two after the hand-over, both ways.
        func participants(_ events: [[String: Any]], from peer: String) -> Int {
            guard let changed = events.firstIndex(where: { $0["event"] as? String == "hostChanged" }) else { return 0 }
            return events[changed...].filter { $0["event"] as? String == "participant" && $0["peer"] as? String == peer }.count
        }
        #expect(participants(annaEvents, from: "bert") > 0)
        #expect(participants(bertEvents, from: "anna") > 0)
    }

    @Test func aPointerFollowsTheHandOverAndKeepsPointing() throws {
        let directory = try SharedSpaceTests.directory("pointer-handover")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (host, port) = try SharedSpaceTests.host(frames: 30, taps: 0, in: directory)
        defer { host.interrupt(signal: SIGKILL); host.wait(seconds: 10) }
        let anna = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 30 | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret '\(SharedSpaceTests.secret)' --name anna --linger 60",
            name: "anna", in: directory)
        defer { anna.interrupt(); anna.wait(seconds: 30) }
        #expect(anna.waitForEvent(seconds: 60) { $0["event"] as? String == "relocalized" }, "\(anna.errorText)")

        // 30 attitudes, a pause until the gate opens (at most 90 s), 30 more (the last one level,
        // the others 30° down): at 60 Hz, as a phone sends them, then the goodbye at once.
        let records = PointerSpaceTests.attitudes(pitch: -30, count: 59, from: 100) + PointerSpaceTests.attitudes(pitch: 0, count: 1, from: 101)
        let first = directory.appendingPathComponent("attitudes.1"), rest = directory.appendingPathComponent("attitudes.2")
        try (records[..<30].joined(separator: "\n") + "\n").write(to: first, atomically: true, encoding: .utf8)
        try (records[30...].joined(separator: "\n") + "\n").write(to: rest, atomically: true, encoding: .utf8)
        let gate = directory.appendingPathComponent("go")
        let pointer = try SpaceProcess(
            "{ cat '\(first.path)'; i=0; while [ ! -e '\(gate.path)' ] && [ $i -lt 1800 ]; do sleep 0.05; i=$((i+1)); done; cat '\(rest.path)'; }"
                + " | exec \"$PK\" pointer --join 127.0.0.1:\(port) --secret '\(SharedSpaceTests.secret)' --name phone --origin 0,1.4,0 --forward 0,0,-1",
            name: "pointer", in: directory)
        #expect(anna.waitForEvent(seconds: 30) { $0["event"] as? String == "pointer" && $0["peer"] as? String == "phone" }, "\(pointer.errorText)")

        // The host dies; Anna (the only joiner) takes over, and the pointer, once it sends again, rejoins her.
        host.interrupt(signal: SIGKILL)
        #expect(host.wait(seconds: 10) != 0)
        #expect(anna.waitForEvent(seconds: 30) { $0["event"] as? String == "hostChanged" }, "\(anna.errorText)")
        #expect(FileManager.default.createFile(atPath: gate.path, contents: nil))
        #expect(pointer.wait(seconds: 30) == 0, "\(pointer.errorText)")
        #expect(pointer.errorText.contains("anna hosts the space now"), "\(pointer.errorText)")
        #expect(pointer.errorText.contains("sent 60 attitudes"), "\(pointer.errorText)")

        // Anna casts the pointer's attitudes after the hand-over, under its name, and sees it leave once.
        func afterHandOver() -> [[String: Any]] {
            let events = anna.events
            guard let changed = events.firstIndex(where: { $0["event"] as? String == "hostChanged" }) else { return [] }
            return Array(events[changed...])
        }
        #expect(anna.waitForEvent(seconds: 10) { $0["event"] as? String == "peerLeft" && $0["peer"] as? String == "phone" })
        let after = afterHandOver()
        #expect(after.named("hostChanged").map { $0["peer"] as? String } == ["anna"])
        let pointed = after.named("pointer").filter { $0["peer"] as? String == "phone" }
        #expect(!pointed.isEmpty, "no pointer event at anna after the hand-over: \(anna.errorText)")
        #expect(after.named("peerLeft").filter { $0["peer"] as? String == "phone" }.count == 1)
        // Its last attitude, sent right before its goodbye, is cast: the last pointer event is level.
        let last = try #require(pointed.last.flatMap(PointerSpaceTests.ray))
        #expect(abs(last.direction.y) < 1e-3, "the last cast ray \(last.direction) is not the last (level) attitude's")
        print("pointer after the hand-over: \(pointed.count) pointer events at anna")
    }
}
