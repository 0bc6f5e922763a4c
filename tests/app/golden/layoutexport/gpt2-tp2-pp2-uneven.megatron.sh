# Megatron-LM arguments for "GPT-2": 4 ranks = DP 1 x PP 2 x TP 2.
# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "${MEGATRON_ARGS[@]}" plus your data, tokenizer, learning-rate and checkpoint flags.
# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag core_v0.15.3); DP is the world size / (TP x PP x CP).
MEGATRON_ARGS=(
    # parallelism
    --tensor-model-parallel-size 2
    --pipeline-model-parallel-size 2
    # uneven stages: 5 and 7 transformer layers
    --decoder-first-pipeline-num-layers 5
    --decoder-last-pipeline-num-layers 7
    # schedule: Megatron-LM's non-interleaved pipeline always runs 1F1B (megatron/core/pipeline_parallel/schedules.py); the drawn GPipe order has no flag (same gradients; 1F1B keeps fewer micro-batches in flight)
    --sequence-parallel
    # model shape
    --num-layers 12
    --hidden-size 768
    --ffn-hidden-size 3072
    --num-attention-heads 12
    --seq-length 1024
    --max-position-embeddings 1024
    --norm-epsilon 1e-05
    # dropout as the model's config has it (Megatron-LM's default is 0.1)
    --attention-dropout 0.1
    --hidden-dropout 0.1
    # vocabulary: 50257 tokens, from your tokenizer (--tokenizer-type, --tokenizer-model)
    # batch: 8 micro-batches x micro-batch size 2 per DP rank and step
    --micro-batch-size 2
    --global-batch-size 16
    --recompute-granularity selective
    --bf16
    --attention-backend flash
    --optimizer adam
)
