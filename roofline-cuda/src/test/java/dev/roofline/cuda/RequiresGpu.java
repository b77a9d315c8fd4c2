package dev.roofline.cuda;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Runs a GPU test class only where {@link Cuda#isAvailable()}; elsewhere it is skipped with the reason. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresGpu.Condition.class)
public @interface RequiresGpu {

    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return Cuda.isAvailable()
                    ? ConditionEvaluationResult.enabled("CUDA device present")
                    : ConditionEvaluationResult.disabled(
                            Cuda.unavailableReason().orElseThrow());
        }
    }
}
