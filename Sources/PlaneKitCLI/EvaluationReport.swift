import PlaneKitSynthesis
import PlaneKitCommandSupport
import PlaneKitEvaluation
import PlaneKitInput

/// What `evaluate` prints: tables and the JSON of the scored images.
struct EvaluationReport {
    /// The scored images, each with an evaluation per threshold.
    let images: [EvaluatedImage]
    /// The thresholds, in the order of each image's evaluations.
    let thresholds: [Double]
    /// Smallest true region counted.
    let minimumPixels: Int

    /// Whether any image had a cloud (the orientation column is shown).
    private var hasClouds: Bool { images.contains(where: \.hasCloud) }

    /// The total over all images at threshold number `index`.
    func total(at index: Int) -> HooverEvaluation.Total {
        HooverEvaluation.Total(threshold: thresholds[index], images.map { $0.evaluations[index] })
    }

    /// Each image, its total and averages per image at threshold number `index`.
    func table(at index: Int) -> String {
        let total = total(at: index)
        var lines = [CFormat.string("Hoover et al. (1996) at T = %.2f", thresholds[index])
                     + (minimumPixels > 1 ? ", true regions of \(minimumPixels) pixels or more" : ", every true region")]
        let nameWidth = max(10, (images.map(\.pair.name.count).max() ?? 0) + 2)
        lines.append(Self.row(CFormat.padded("image", to: nameWidth), ["true", "segs", "correct", "over", "under", "missed", "noise"],
                              ["recall", "precision"] + (hasClouds ? ["angle"] : [])))
        for image in images {
            let one = HooverEvaluation.Total(threshold: thresholds[index], [image.evaluations[index]])
            let angle = one.meanOrientationError.map { CFormat.string("%.2f°", $0) } ?? (image.hasCloud ? "-" : "")
            lines.append(Self.row(CFormat.padded(image.pair.name, to: nameWidth), Self.counts(one).map { "\($0)" },
                                  Self.ratios(one) + (hasClouds ? [angle] : [])))
        }
        lines.append(Self.row(CFormat.padded("total", to: nameWidth), Self.counts(total).map { "\($0)" }, Self.ratios(total)))
        lines.append(Self.row(CFormat.padded("per image", to: nameWidth),
                              Self.counts(total).map { CFormat.string("%.1f", total.perImage($0)) }, []))
        lines.append("\(total.images) image\(total.images == 1 ? "" : "s"): "
                     + CFormat.string("correct %.1f of %.1f true regions per image; recall %.1f%%, precision %.1f%%",
                                      total.perImage(total.correct), total.perImage(total.trueRegions),
                                      100 * total.recall, 100 * total.precision))
        if let mean = total.meanOrientationError, let median = total.medianOrientationError {
            lines.append(CFormat.string("orientation error over %d correct detections: mean %.2f°, median %.2f°",
                                        total.orientationErrors.count, mean, median))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One row per threshold: the averages per image, recall and precision.
    func sweepTable() -> String {
        let first = total(at: 0)
        var lines = [CFormat.string("Hoover et al. (1996) over %d images, %.1f true regions and %.1f segments per image",
                                    first.images, first.perImage(first.trueRegions), first.perImage(first.detectedRegions))]
        lines.append(Self.row("   T", ["correct", "over", "under", "missed", "noise"], ["recall", "precision"] + (hasClouds ? ["angle"] : [])))
        for index in thresholds.indices {
            let total = total(at: index)
            let averages = Self.counts(total).dropFirst(2).map { CFormat.string("%.1f", total.perImage($0)) }
            let angle = total.meanOrientationError.map { CFormat.string("%.2f°", $0) } ?? "-"
            lines.append(Self.row(CFormat.string("%.2f", thresholds[index]), averages, Self.ratios(total) + (hasClouds ? [angle] : [])))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The JSON object at threshold number `index`: every image and the total.
    func json(at index: Int) -> JSON {
        JSON(threshold: thresholds[index], minimumPixels: minimumPixels,
             images: images.map { JSON.Image(image: $0, index: index) },
             total: JSON.Summary(total(at: index)))
    }

    /// The counts in table order: true, segments, correct, over, under, missed, noise.
    private static func counts(_ t: HooverEvaluation.Total) -> [Int] {
        [t.trueRegions, t.detectedRegions, t.correct, t.overSegmented, t.underSegmented, t.missed, t.noise]
    }

    /// Recall and precision as percentages.
    private static func ratios(_ t: HooverEvaluation.Total) -> [String] {
        [CFormat.string("%.1f%%", 100 * t.recall), CFormat.string("%.1f%%", 100 * t.precision)]
    }

    /// A table row: the first cell as given, then numbers right-aligned in 8 columns, then 10.
    private static func row(_ first: String, _ numbers: [String], _ wide: [String]) -> String {
        var text = first + numbers.map { CFormat.padded($0, to: -8) }.joined() + wide.map { CFormat.padded($0, to: -11) }.joined()
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// `--json`'s object for one threshold.
    struct JSON: Encodable {
        /// The counts of one image or of all: the fields of ``HooverEvaluation/Total``, then the
        /// averages per image, recall, precision and the mean and median orientation error.
        struct Summary: Encodable {
            /// The sums.
            let total: HooverEvaluation.Total

            init(_ total: HooverEvaluation.Total) {
                self.total = total
            }

            private enum Key: String, CodingKey {
                case perImage, recall, precision, meanOrientationError, medianOrientationError
            }

            func encode(to encoder: any Encoder) throws {
                try total.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                let names = ["trueRegions", "detectedRegions", "correct", "overSegmented", "underSegmented", "missed", "noise"]
                try container.encode(Dictionary(uniqueKeysWithValues: zip(names, EvaluationReport.counts(total).map { total.perImage($0) })),
                                     forKey: .perImage)
                try container.encode(total.recall, forKey: .recall)
                try container.encode(total.precision, forKey: .precision)
                try container.encodeIfPresent(total.meanOrientationError, forKey: .meanOrientationError)
                try container.encodeIfPresent(total.medianOrientationError, forKey: .medianOrientationError)
            }
        }

        /// One scored image: its files (as ``EvaluationPairs/Pair`` encodes them), size, summary
        /// and the labels in each class at one threshold.
        struct Image: Encodable {
            /// The image.
            let image: EvaluatedImage
            /// The threshold's number.
            let index: Int

            private enum Key: String, CodingKey {
                case width, height, summary, classes
            }

            func encode(to encoder: any Encoder) throws {
                try image.pair.encode(to: encoder)
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(image.width, forKey: .width)
                try container.encode(image.height, forKey: .height)
                let evaluation = image.evaluations[index]
                try container.encode(Summary(HooverEvaluation.Total(threshold: evaluation.threshold, [evaluation])), forKey: .summary)
                try container.encode(evaluation, forKey: .classes)
            }
        }

        /// The threshold T.
        let threshold: Double
        /// Smallest true region counted.
        let minimumPixels: Int
        /// Every scored image.
        let images: [Image]
        /// All images together.
        let total: Summary
    }
}
