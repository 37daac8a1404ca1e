import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitMaps
import Testing

/// The samples that maps and relocalization compare: their normals must hold on a depth camera
/// whose steps grow with the square of depth.
struct MapPointSamplerTests {
    /// A wall turned 17° from facing the camera at `depth` m, read as a Kinect reads it: depth
    /// from a disparity in eighths of a pixel (focal length 585 px, baseline 7.5 cm), so steps
    /// of 0.3 cm at 1 m and 2.6 cm at 3 m.
    static func kinectWall(depth: Float) throws -> PointCloud {
        let intrinsics = try #require(PinholeIntrinsics(fx: 585, fy: 585, cx: 320, cy: 240, width: 640, height: 480))
        let normal = normalize(SIMD3<Float>(0.3, 0, -1)), offset = -dot(normal, SIMD3(0, 0, depth))
        let disparityScale: Float = 585 * 0.075 * 8
        var points = ContiguousArray<SIMD3<Float>>()
        for v in 0..<480 {
            for u in 0..<640 {
                let ray = SIMD3((Float(u) - 320) / 585, (Float(v) - 240) / 585, 1)
                let z = -offset / dot(normal, ray)
                let quantised = disparityScale / (disparityScale / z).rounded()
                points.append(ray * quantised)
            }
        }
        return try PointCloud(width: 640, height: 480, points: points, intrinsics: intrinsics)
    }

    @Test(arguments: [1, 2, 3] as [Float])
    func normalsOfAQuantisedWallAgreeWithIt(depth: Float) throws {
        let truth = normalize(SIMD3<Float>(-0.3, 0, 1)) * -1   // facing the camera
        let samples = MapPointSampler.samples(of: try Self.kinectWall(depth: depth), stride: 16, reach: 4)
        #expect(samples.count > 1000)
        let angles = samples.map { acos(min(1, dot($0.1, truth))) * 180 / .pi }.sorted()
        let within25 = Float(angles.filter { $0 <= 25 }.count) / Float(angles.count)
        print("wall at \(depth) m: median normal error \(angles[angles.count / 2])°, \(within25 * 100)% within 25°")
        // The maps' and relocalization's checks pair normals within 25°.
        #expect(within25 >= 0.97)
        #expect(angles[angles.count / 2] <= 10)
    }
}
