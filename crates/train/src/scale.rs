//! The scale of the sigmoid that maps a score in centipawns to an expected result.

/// The scale that best predicts the results from the scores of `points` (score, result),
/// least squares, by a golden-section search over 50–2000 cp.
pub fn fit_scale(points: &[(f32, f32)]) -> f32 {
    let error = |k: f64| -> f64 {
        points
            .iter()
            .map(|&(score, result)| {
                let p = 1.0 / (1.0 + (-(score as f64) / k).exp());
                (p - result as f64).powi(2)
            })
            .sum()
    };
    let (mut lo, mut hi) = (50.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(a) < error(b) { hi = b } else { lo = a }
    }
    ((lo + hi) / 2.0) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_of_results_drawn_from_a_sigmoid_is_found() {
        // Expected results of a sigmoid of scale 400 as the "results": the fit finds 400.
        let points: Vec<(f32, f32)> = (-20..=20)
            .map(|i| {
                let cp = i as f32 * 50.0;
                (cp, 1.0 / (1.0 + (-cp / 400.0).exp()))
            })
            .collect();
        assert!((fit_scale(&points) - 400.0).abs() < 1.0, "{}", fit_scale(&points));
    }
}
