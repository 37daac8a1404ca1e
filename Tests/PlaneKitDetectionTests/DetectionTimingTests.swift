import Foundation
import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput

/// Times `detect` on VGA frames and prints the median of the thread's CPU time (so that other
/// processes sharing the machine do not count) and of the wall-clock time. It never asserts on time (timing depends
/// on the machine and the build); it asserts that repeated runs give identical results.
/// For meaningful figures run it in a release build:
/// `swift test -c release --filter DetectionTimingTests`.
@Suite struct DetectionTimingTests {
    @Test func medianTimePerVGAFrame() throws {
        let table = TestSurface.plane(Plane(unitNormal: SIMD3(0, 1, 0), offset: -0.75), center: SIMD3(0.2, 0.75, 2.3),
                                      axes: (SIMD3(1, 0, 0), SIMD3(0, 0, 1)), halfSizes: SIMD2(0.6, 0.4))
        let side = TestSurface.plane(Plane(unitNormal: SIMD3(1, 0, 0), offset: 1.6), center: SIMD3(-1.6, 1.2, 3),
                                     axes: (SIMD3(0, 1, 0), SIMD3(0, 0, 1)), halfSizes: SIMD2(1.2, 2))
        let scenes: [(String, RenderedFrame)] = [
            ("floor+wall", try renderFrame(surfaces: [.infinite(worldFloor), .infinite(worldWall(at: 3.2))],
                                           pose: standingCamera(), noise: .kinect, seed: 1)),
            ("room+table+curved", try renderFrame(
                surfaces: [.infinite(worldFloor), .infinite(worldWall(at: 4)), table, side,
                           .sphere(center: SIMD3(0.9, 0.35, 2.0), radius: 0.35),
                           .cylinder(base: SIMD3(-0.8, 0, 2.6), radius: 0.2, height: 1.1)],
                pose: standingCamera(target: SIMD3(0, 0.2, 3)), noise: .kinect, dropoutFraction: 0.03, seed: 2)),
        ]
        let detector = OrganizedPlaneDetector()
        for (name, frame) in scenes {
            let reference = try detector.detect(in: frame.cloud)
            var cpu: [Double] = [], wall: [Double] = []
            for _ in 0..<40 {
                let (startCPU, startWall) = (threadCPUTime(), DispatchTime.now().uptimeNanoseconds)
                let result = try detector.detect(in: frame.cloud)
                cpu.append((threadCPUTime() - startCPU) * 1e3)
                wall.append(Double(DispatchTime.now().uptimeNanoseconds - startWall) / 1e6)
                #expect(result.planes == reference.planes)
            }
            cpu.sort()
            wall.sort()
            print("detect \(name): \(reference.planes.count) planes; CPU median \(String(format: "%.2f", cpu[cpu.count / 2])) ms "
                  + "(min \(String(format: "%.2f", cpu[0]))), wall median \(String(format: "%.2f", wall[wall.count / 2])) ms "
                  + "over \(cpu.count) runs")
            #expect(!reference.planes.isEmpty)
        }
    }
}

/// The calling thread's CPU time in seconds.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
