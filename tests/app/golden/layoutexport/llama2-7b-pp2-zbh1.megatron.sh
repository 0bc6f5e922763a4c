# Megatron-LM arguments for "LLaMA-2 7B": 8 ranks = DP 2 x PP 2 x TP 2.
# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "${MEGATRON_ARGS[@]}" plus your data, tokenizer, learning-rate and checkpoint flags.
# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag core_v0.15.3); DP is the world size / (TP x PP x CP).
MEGATRON_ARGS=(
    # parallelism
    --tensor-model-parallel-size 2
    --pipeline-model-parallel-size 2
    # even split: 16 transformer layers per stage, the embedding on the first, ln_f and the head on the last
    # schedule: ZB-H1 (Qi et al. 2024) is in its authors' fork of Megatron-LM (sail-sg/zero-bubble-pipeline-parallelism), not in Megatron-LM: this runs its 1F1B, with the bubble the planner shows for 1F1B
    # ranks in Tessera's order, rank = ((dp x PP + stage) x CP + cp) x TP + tp (Megatron-LM's default order is tp-cp-ep-dp-pp)
    --use-tp-pp-dp-mapping
    # ZeRO-1: the distributed optimizer shards optimizer state over the DP ranks (docs/source/api-guide/dist_optimizer.md)
    --use-distributed-optimizer
    # model shape
    --num-layers 32
    --hidden-size 4096
    --ffn-hidden-size 11008
    --num-attention-heads 32
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
    # batch: 4 micro-batches x micro-batch size 2 per DP rank and step
    --micro-batch-size 2
    --global-batch-size 16
    --bf16
    --attention-backend flash
    --optimizer adam
)
