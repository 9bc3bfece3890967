//! Random and mutated plan bytes never panic through `gatun_operator_create` (every
//! failure is a plan error) and leave no live handle.

use std::sync::Arc;

use arrow::array::{ArrayRef, Int32Array, StringArray};
use datafusion::logical_expr::{binary_expr, when, Operator};
use gatun_native::ffi::abi::{
    GATUN_ERR_ARROW, GATUN_ERR_EXECUTION, GATUN_ERR_PANIC, GATUN_ERR_PLAN, GATUN_OK,
};

use crate::calc_util::*;
use crate::common::stats;

/// xorshift64*: deterministic, dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 if at < bytes.len() => bytes[at] = rng.next() as u8,
            2 => bytes.insert(at, rng.next() as u8),
            3 if at < bytes.len() => {
                bytes.remove(at);
            }
            4 => bytes.truncate(at),
            _ => {
                let from = rng.below(bytes.len() + 1);
                let len = rng.below(16).min(bytes.len() - from);
                let chunk = bytes[from..from + len].to_vec();
                bytes.splice(at..at, chunk);
            }
        }
    }
    bytes
}

#[test]
fn random_and_mutated_plans_never_panic() {
    let _guard = no_leaks();
    let input = batch(vec![
        (
            "a",
            Arc::new(Int32Array::from(vec![Some(1), None, Some(0), Some(7)])) as ArrayRef,
        ),
        (
            "s",
            Arc::new(StringArray::from(vec![
                Some("héllo"),
                Some(""),
                None,
                Some("x"),
            ])) as ArrayRef,
        ),
    ]);
    let schema = input.schema();
    let projections = [
        ("sum", binary_expr(col("a"), Operator::Plus, lit(1))),
        (
            "sub",
            call("gatun_flink_substring", vec![col("s"), lit(2), lit(3)]),
        ),
        (
            "q",
            when(binary_expr(col("a"), Operator::Eq, lit(0)), lit(0))
                .otherwise(call("gatun_flink_divide", vec![lit(10), col("a")]))
                .unwrap(),
        ),
    ];
    let filter = binary_expr(col("a"), Operator::NotEq, lit(3))
        .and(call("gatun_flink_like", vec![col("s"), lit("%l%")]));
    let seed = plan(&schema, &projections, Some(filter));
    let expected = expected(&schema, &projections);
    create(&seed, &schema, &expected).expect("the seed plan is valid");

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut created, mut plan_errors) = (0, 0);
    for i in 0..3000 {
        let bytes = if i % 5 == 0 {
            (0..rng.below(200)).map(|_| rng.next() as u8).collect()
        } else {
            mutate(&mut rng, &seed)
        };
        match create(&bytes, &schema, &expected) {
            Ok(handle) => {
                created += 1;
                if let Err((status, message)) = handle.evaluate(&input) {
                    assert!(
                        [GATUN_ERR_EXECUTION, GATUN_ERR_ARROW].contains(&status),
                        "evaluate of a mutated plan: {status} {message}"
                    );
                }
            }
            Err((status, message)) => {
                assert_ne!(status, GATUN_ERR_PANIC, "panic for plan #{i}: {message}");
                assert!(
                    [GATUN_ERR_PLAN, GATUN_ERR_ARROW].contains(&status),
                    "{status}: {message}"
                );
                plan_errors += 1;
            }
        }
        assert_eq!(stats().live_handles, 0);
    }
    println!("fuzz: {created} mutated plans compiled, {plan_errors} rejected");
    assert!(
        plan_errors > 1000,
        "mutations should mostly break the plan ({created} compiled)"
    );
    assert_ne!(GATUN_OK, GATUN_ERR_PANIC);
}
