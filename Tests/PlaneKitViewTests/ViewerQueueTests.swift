import Testing
@testable import PlaneKitView

@Suite("ViewerQueue") struct ViewerQueueTests {
    @Test("a new viewer starts with a snapshot, then gets lines in order with the latest points last")
    func snapshotThenLines() {
        var queue = ViewerQueue(byteLimit: 1000)
        queue.push("before\n")
        #expect(queue.take() == .snapshot)
        #expect(queue.take() == .nothing)
        queue.push("a\n")
        queue.pushPoints("points 1\n")
        queue.push("b\n")
        queue.pushPoints("points 2\n")
        #expect(queue.take() == .lines(["a\n", "b\n", "points 2\n"]))
        #expect(queue.droppedCount == 1)
        #expect(queue.byteCount == 0)
    }

    @Test("a viewer that falls behind drops its queue and catches up with one snapshot")
    func overflow() {
        var queue = ViewerQueue(byteLimit: 100)
        _ = queue.take()
        let line = String(repeating: "x", count: 39) + "\n"
        queue.push(line)
        queue.push(line)
        #expect(queue.byteCount == 80)
        queue.push(line)
        #expect(queue.overflowCount == 1)
        #expect(queue.droppedCount == 3)
        // Lines that come while it waits for the snapshot are in the snapshot already.
        queue.push(line)
        #expect(queue.droppedCount == 3)
        #expect(queue.take() == .snapshot)
        queue.push("next\n")
        #expect(queue.take() == .lines(["next\n"]))
    }
}
