import Foundation
import PlaneKitGeometry
@testable import PlaneKitInput
import PlaneKitTestSupport
import Testing
@testable import PlaneKitCloudIO

/// 0 and 65 535 are no reading, and a maximum range makes far readings holes, on every path
/// from a file to points.
struct DepthReadingRulesTests {
    @Test func zeroAndAllOnesAreNoReadingAtAnyScale() {
        #expect(DepthReadingRules.noReadingSamples == [0, 65535])
        for scale: Float in [0.001, 0.0002, 0.01, 1] {
            #expect(DepthReadingRules.metres(sample: 0, scale: scale) == nil)
            #expect(DepthReadingRules.metres(sample: 65535, scale: scale) == nil)
            #expect(DepthReadingRules.metres(sample: 65534, scale: scale) == Float(65534) * scale)
            #expect(DepthReadingRules.metres(sample: 1, scale: scale) == scale)
        }
        // A scale that makes a depth infinite, or is not positive, gives no reading either.
        #expect(DepthReadingRules.metres(sample: 40000, scale: 1e35) == nil)
        #expect(DepthReadingRules.metres(sample: 40000, scale: -0.001) == nil)
    }

    @Test func maximumDepthKeepsItsOwnValueAndDropsFartherOnes() {
        // The limit is inclusive: a reading exactly at it stays.
        let atLimit = Float(4000) * 0.001
        #expect(DepthReadingRules.metres(sample: 4000, scale: 0.001, maxDepth: atLimit) == atLimit)
        #expect(DepthReadingRules.metres(sample: 4001, scale: 0.001, maxDepth: atLimit) == nil)
        #expect(DepthReadingRules.isReading(depth: 3.99, maxDepth: 4) && !DepthReadingRules.isReading(depth: 4.01, maxDepth: 4))
        #expect(!DepthReadingRules.isReading(depth: .nan, maxDepth: nil) && !DepthReadingRules.isReading(depth: .infinity, maxDepth: nil))
        #expect(!DepthReadingRules.isReading(depth: 0, maxDepth: nil) && !DepthReadingRules.isReading(depth: -1, maxDepth: nil))
        #expect(DepthReadingRules.isReading(depth: 1e30, maxDepth: nil))
        for bad: Float in [0, -1, .nan, .infinity, -.infinity] { #expect(!DepthReadingRules.isValid(maxDepth: bad)) }
        for good: Float in [0.001, 4, 65.5, 1e30] { #expect(DepthReadingRules.isValid(maxDepth: good)) }
    }

    @Test func tableAgreesWithTheRuleForEverySample() {
        let table = DepthReadingRules.table(scale: 0.001, maxDepth: 10)
        #expect(table.count == 65536)
        var readings = 0
        for sample in 0...65535 {
            let expected = DepthReadingRules.metres(sample: UInt16(sample), scale: 0.001, maxDepth: 10)
            if let expected {
                readings += 1
                #expect(table[sample] == expected)
            } else {
                #expect(table[sample].isNaN)
            }
        }
        // 1 … 10 000 mm (10 000 × 0.001 rounds to exactly 10 as a float).
        #expect(readings == 10000)
        #expect(DepthReadingRules.table(scale: 0.001, maxDepth: nil).filter { !$0.isNaN }.count == 65534)
    }

    @Test func depthImageMakesHolesOfNoReadingAndFarSamples() throws {
        let raw = try GrayImage(width: 3, height: 2, samples: [1000, 65535, 0, 5000, 65534, 2500])
        let image = DepthImage(raw, scale: 0.001)
        #expect(image.depths == [Float(1000) * 0.001, 0, 0, Float(5000) * 0.001, Float(65534) * 0.001, Float(2500) * 0.001])
        let k = try #require(PinholeIntrinsics(fx: 500, fy: 500, cx: 1, cy: 0.5, width: 3, height: 2))
        let cloud = image.pointCloud(intrinsics: k)
        #expect(cloud.finiteCount == 4 && cloud[1, 0].z.isNaN && cloud[2, 0].z.isNaN)
        // With a 3 m range the 5 m and 65.5 m readings go too, and nothing else changes.
        let near = DepthImage(raw, scale: 0.001, maxDepth: 3)
        #expect(near.depths == [Float(1000) * 0.001, 0, 0, 0, 0, Float(2500) * 0.001])
        #expect(near.pointCloud(intrinsics: k).finiteCount == 2)
    }

    /// A 16-bit PNG whose sensor marks missing depth with 65 535, read as `analyze` reads it.
    @Test func depthImageFilesFollowTheRulesAndTheRange() throws {
        let directory = try SharedData.temporaryDirectory("planekit-input")
        let path = directory.appendingPathComponent("tum_depth.png").path
        // 5000 units per metre, TUM's scale: 0.4 m, 1 m, 2 m, none, 8 m, none.
        try PNGWriter.write(try GrayImage(width: 3, height: 2, samples: [2000, 5000, 10000, 65535, 40000, 0]), to: path)
        try Data(#"{"fx": 525, "fy": 525, "cx": 1, "cy": 0.5, "depthScale": 0.0002}"#.utf8)
            .write(to: directory.appendingPathComponent("tum.json"))
        let cloud = try PointCloudReader.read(path: path)
        #expect(cloud.finiteCount == 4 && cloud[0, 1].z.isNaN && cloud[2, 1].z.isNaN)
        #expect(cloud.points.allSatisfy { !($0.z > 9) })
        let near = try PointCloudReader.read(path: path, options: ReadOptions(maxDepth: 1.5))
        #expect(near.finiteCount == 2)
        #expect(near[0, 0].z == Float(2000) * 0.0002 && near[1, 0].z == Float(5000) * 0.0002)
        #expect(near[2, 0].z.isNaN && near[1, 1].z.isNaN)
        let image = try DepthImageReader.read(path: path, options: ReadOptions(maxDepth: 1.5)).image
        #expect(image.depths.filter { $0 > 0 }.count == 2)
    }

    @Test func aRangeThatIsNotPositiveAndFiniteIsRefusedWithTheFileNamed() throws {
        let directory = try SharedData.temporaryDirectory("planekit-input")
        let path = directory.appendingPathComponent("room.pgm").path
        try PGMWriter.write(try GrayImage(width: 2, height: 2, samples: [1000, 1000, 1000, 1000]), to: path)
        let k = PinholeIntrinsics.kinect(width: 2, height: 2)
        for bad: Float in [0, -2, .nan, .infinity] {
            let error = readError(path, options: ReadOptions(intrinsics: k, maxDepth: bad))
            #expect(error?.source == path)
            #expect(error?.problem.contains("maximum depth") == true, "\(bad): \(String(describing: error))")
        }
        #expect(readError(path, options: ReadOptions(intrinsics: k, maxDepth: 0.5)) == nil)
    }

    /// Clouds are cut by the point's z in the sensor frame: organized ones keep their layout.
    @Test func organizedCloudFilesLoseFarPointsAsHoles() throws {
        let points: ContiguousArray<SIMD3<Float>> = [
            SIMD3(0, 0, 1), SIMD3(0.5, 0, 2.5), SIMD3(.nan, .nan, .nan),
            SIMD3(-3, 1, 2.9), SIMD3(0, 0, 7), SIMD3(1, 1, -4),
        ]
        let pose = Transform(rotation: Quaternion(angle: 0.3, axis: SIMD3(0, 1, 0)), translation: SIMD3(0, 1.2, 0))
        let cloud = try PointCloud(width: 3, height: 2, points: points, sensorPose: pose)
        let path = try TestFiles.path("organized.pcd")
        try PCDWriter.write(cloud, to: path)
        let all = try PointCloudReader.read(path: path)
        #expect(all.finiteCount == 5)
        let near = try PointCloudReader.read(path: path, options: ReadOptions(maxDepth: 3))
        #expect(near.width == 3 && near.height == 2)
        // The 7 m point is gone; the point behind the sensor and the 2.9 m one far to the side
        // (over 4 m away, but 2.9 m along +Z) stay.
        #expect(near.finiteCount == 4 && near[1, 1].z.isNaN)
        #expect(near[0, 1] == SIMD3(-3, 1, 2.9) && near[2, 1] == SIMD3(1, 1, -4))
        #expect(near.sensorPose.translation == pose.translation)
    }

    @Test func unorganizedCloudsLoseFarPointsAndTheirColours() throws {
        var cloud = PointCloud(unorganized: [SIMD3(0, 0, 1), SIMD3(0, 0, 9), SIMD3(0, 0, 2), SIMD3(0, 0, 12)],
                               colors: [SIMD3(1, 1, 1), SIMD3(2, 2, 2), SIMD3(3, 3, 3), SIMD3(4, 4, 4)])
        cloud.sensorPose = Transform(rotation: Quaternion(angle: 0, axis: SIMD3(0, 1, 0)), translation: SIMD3(0, 2, 0))
        cloud.dropReadings(beyond: 5)
        #expect(cloud.points == [SIMD3(0, 0, 1), SIMD3(0, 0, 2)])
        #expect(cloud.colors == [SIMD3(1, 1, 1), SIMD3(3, 3, 3)])
        #expect(cloud.width == 2 && cloud.height == 1 && cloud.sensorPose.translation == SIMD3(0, 2, 0))
        let path = try TestFiles.write(Array("0 0 1\n0 0 9\n1 1 4.5\n".utf8), name: "far.xyz")
        #expect(try PointCloudReader.read(path: path, options: ReadOptions(maxDepth: 5)).count == 2)
        #expect(try PointCloudReader.read(path: path).count == 3)
    }
}
