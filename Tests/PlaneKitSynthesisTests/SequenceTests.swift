import Foundation
import PlaneKitGeometry
import PlaneKitSynthesis
import Testing
import PlaneKitSyntheticWalks

@Suite struct SequenceTests {
    @Test func posesMoveSmoothlyAtWalkingSpeed() {
        for seed in 0..<8 as Range<UInt64> {
            let sequence = SyntheticSequence(seed: seed, frameCount: 900)
            // Over a whole loop and then some: 900 frames is 30 s, 15 m at 0.5 m/s.
            var previous = sequence.pose(ofFrame: 0)
            var largestStep: Float = 0, smallestStep: Float = 1, largestTurn: Float = 0
            for i in 1..<900 {
                let pose = sequence.pose(ofFrame: i)
                let step = distance(pose.translation, previous.translation)
                largestStep = max(largestStep, step)
                smallestStep = min(smallestStep, step)
                largestTurn = max(largestTurn, pose.zAxis.angle(to: previous.zAxis) * 180 / .pi)
                #expect(pose.rotation.isRotation())
                #expect(abs(pose.translation.y - 1.4) < 1e-4)
                #expect(sequence.room.isFree(pose.translation, margin: 0.3))
                previous = pose
            }
            // 0.5 m/s at 30 fps is 1.67 cm per frame.
            #expect(largestStep < 0.03, "seed \(seed): step \(largestStep) m")
            #expect(abs(largestStep - 0.5 / 30) < 0.002 && abs(smallestStep - 0.5 / 30) < 0.002)
            // A loop around a 3 m room turns 360° in about 10 s; with the pan that stays below
            // 75°/s.
            #expect(largestTurn < 2.5, "seed \(seed): turn \(largestTurn)°")
        }
    }

    @Test func framesAreRenderedLazilyWithTimestampsAndPoses() {
        let small = PinholeIntrinsics(fx: 52.5, fy: 52.5, cx: 31.5, cy: 23.5, width: 64, height: 48)!
        let sequence = SyntheticSequence(seed: 21, frameCount: 12, intrinsics: small)
        var count = 0
        for (i, frame) in sequence.enumerated() {
            #expect(frame.timestamp == Double(i) / 30)
            #expect(frame.pose == sequence.pose(ofFrame: i))
            #expect(frame.cloud.sensorPose == frame.pose)
            #expect(frame.width == 64 && frame.height == 48)
            count += 1
        }
        #expect(count == 12)
        // Rendering a frame directly gives the same frame as iterating to it.
        var iterator = sequence.makeIterator()
        _ = iterator.next()
        let second = iterator.next()!
        #expect(second.labels == sequence.frame(at: 1).labels)
        #expect(second.cloud.points.map(\.z.bitPattern) == sequence.frame(at: 1).cloud.points.map(\.z.bitPattern))
        // Frames differ in noise from one to the next even where the view barely changes.
        #expect(sequence.frame(at: 0).cloud.points.map(\.z.bitPattern) != sequence.frame(at: 1).cloud.points.map(\.z.bitPattern))
        #expect(SyntheticSequence(seed: 21).pose(ofFrame: 50) == sequence.pose(ofFrame: 50))
        #expect(SyntheticSequence(seed: 22).pose(ofFrame: 50) != sequence.pose(ofFrame: 50))
    }

    @Test func pathPansAndTiltsAsConfigured() {
        let path = CameraPath(waypoints: [SIMD3(-1, 1.4, 0), SIMD3(0, 1.4, -1), SIMD3(1, 1.4, 0), SIMD3(0, 1.4, 1)])
        #expect(abs(path.length - 2 * Float.pi) < 0.4)
        // At t = 0 the pan and tilt swings are at zero: 20° down, looking along the path (its
        // direction over the metre around the camera).
        let start = path.pose(atTime: 0)
        #expect(abs(asin(-start.zAxis.y) * 180 / .pi - 20) < 1e-3)
        let heading = normalize(path.position(atDistance: 0.5) - path.position(atDistance: -0.5))
        let forward = normalize(SIMD3(start.zAxis.x, 0, start.zAxis.z))
        #expect(forward.angle(to: heading) * 180 / .pi < 0.5)
        // A quarter pan period later the pan is at its full 25°.
        let later = path.pose(atTime: path.panPeriod / 4)
        let s = Float(path.panPeriod / 4) * path.speed
        let laterHeading = normalize(path.position(atDistance: s + 0.5) - path.position(atDistance: s - 0.5))
        let laterForward = normalize(SIMD3(later.zAxis.x, 0, later.zAxis.z))
        #expect(abs(laterForward.angle(to: laterHeading) * 180 / .pi - 25) < 0.5)
        // The loop passes through its way-points.
        #expect(path.waypoints.allSatisfy { w in
            (0..<400).contains { distance(path.position(atDistance: path.length * Float($0) / 400), w) < 0.02 }
        })
    }
}
