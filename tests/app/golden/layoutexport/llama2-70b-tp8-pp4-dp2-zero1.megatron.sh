# Megatron-LM arguments for "LLaMA-2 70B": 64 ranks = DP 2 x PP 4 x TP 8.
# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "${MEGATRON_ARGS[@]}" plus your data, tokenizer, learning-rate and checkpoint flags.
# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag core_v0.15.3); DP is the world size / (TP x PP x CP).
MEGATRON_ARGS=(
    # parallelism
    --tensor-model-parallel-size 8
    --pipeline-model-parallel-size 4
    # uneven first/last stages; the 2 middle stage(s) hold 21 transformer layers each
    --decoder-first-pipeline-num-layers 20
    --decoder-last-pipeline-num-layers 18
    # ranks in Tessera's order, rank = ((dp x PP + stage) x CP + cp) x TP + tp (Megatron-LM's default order is tp-cp-ep-dp-pp)
    --use-tp-pp-dp-mapping
    --sequence-parallel
    # ZeRO-1: the distributed optimizer shards optimizer state over the DP ranks (docs/source/api-guide/dist_optimizer.md)
    --use-distributed-optimizer
    # model shape
    --num-layers 80
    --hidden-size 8192
    --ffn-hidden-size 28672
    --num-attention-heads 64
    --group-query-attention
    --num-query-groups 8
    --seq-length 4096
    --max-position-embeddings 4096
    --normalization RMSNorm
    --swiglu
    --position-embedding-type rope
    --disable-bias-linear
    --norm-epsilon 1e-05
    --untie-embeddings-and-output-weights
    # dropout as the model's config has it (Megatron-LM's default is 0.1)
    --attention-dropout 0
    --hidden-dropout 0
    # vocabulary: 32000 tokens, from your tokenizer (--tokenizer-type, --tokenizer-model)
    # batch: 32 micro-batches x micro-batch size 1 per DP rank and step
    --micro-batch-size 1
    --global-batch-size 64
    --recompute-granularity full
    --recompute-method uniform
    --recompute-num-layers 1
    --bf16
    --attention-backend flash
    --optimizer adam
)
