# Megatron-LM arguments for "GPT test": 4 ranks = DP 1 x PP 4 x TP 1.
# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "${MEGATRON_ARGS[@]}" plus your data, tokenizer, learning-rate and checkpoint flags.
# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag core_v0.15.3); DP is the world size / (TP x PP x CP).
MEGATRON_ARGS=(
    # parallelism
    --tensor-model-parallel-size 1
    --pipeline-model-parallel-size 4
    # the drawn split is not even in the middle stages or has a stage without transformer layers: Megatron-LM core 0.13 or later reads it as a layout (E embedding, t transformer layer, L ln_f + head + loss, | between stages)
    --pipeline-model-parallel-layout "E|t*3|t*2|t*3L"
    # model shape
    --num-layers 8
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
    # batch: 8 micro-batches x micro-batch size 2 per DP rank and step
    --micro-batch-size 2
    --global-batch-size 16
    # precision fp32: Megatron-LM's default (no --bf16/--fp16)
    --optimizer adam
)
