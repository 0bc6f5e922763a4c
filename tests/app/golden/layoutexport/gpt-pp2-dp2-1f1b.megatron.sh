# Megatron-LM arguments for "GPT test": 4 ranks = DP 2 x PP 2 x TP 1.
# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "${MEGATRON_ARGS[@]}" plus your data, tokenizer, learning-rate and checkpoint flags.
# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag core_v0.15.3); DP is the world size / (TP x PP x CP).
MEGATRON_ARGS=(
    # parallelism
    --tensor-model-parallel-size 1
    --pipeline-model-parallel-size 2
    # even split: 2 transformer layers per stage, the embedding on the first, ln_f and the head on the last
    # ranks in Tessera's order, rank = ((dp x PP + stage) x CP + cp) x TP + tp (Megatron-LM's default order is tp-cp-ep-dp-pp)
    --use-tp-pp-dp-mapping
    # ZeRO-1: the distributed optimizer shards optimizer state over the DP ranks (docs/source/api-guide/dist_optimizer.md)
    --use-distributed-optimizer
    # model shape
    --num-layers 4
    --hidden-size 256
    --ffn-hidden-size 1024
    --num-attention-heads 8
    --seq-length 128
    --max-position-embeddings 128
    --untie-embeddings-and-output-weights
    # dropout as the model's config has it (Megatron-LM's default is 0.1)
    --attention-dropout 0
    --hidden-dropout 0
    # vocabulary: from your tokenizer (--tokenizer-type, --tokenizer-model)
    # batch: 4 micro-batches x micro-batch size 4 per DP rank and step
    --micro-batch-size 4
    --global-batch-size 32
    # precision fp32: Megatron-LM's default (no --bf16/--fp16)
    --optimizer adam
)
