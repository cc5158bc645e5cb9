import { TableKitError } from "../../../model/index.js";
import type { DynamoAttributeValue } from "./table-item-layout.js";

/**
 * The slice of `@aws-sdk/client-dynamodb` this backend uses, declared structurally so the package
 * stays an optional peer dependency: it is imported only when a `dynamodb:` store is opened.
 */

export type AttributeMap = Record<string, DynamoAttributeValue>;

interface ExpressionParts {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: AttributeMap;
}

interface Conditional extends ExpressionParts {
  TableName: string;
  ConditionExpression?: string;
  ReturnValuesOnConditionCheckFailure?: "ALL_OLD" | "NONE";
}

export interface PutInput extends Conditional {
  Item: AttributeMap;
}

export interface DeleteInput extends Conditional {
  Key: AttributeMap;
}

export interface GetInput {
  TableName: string;
  Key: AttributeMap;
  ConsistentRead?: boolean;
}

export interface ReadInput extends ExpressionParts {
  TableName: string;
  KeyConditionExpression?: string;
  FilterExpression?: string;
  ProjectionExpression?: string;
  ExclusiveStartKey?: AttributeMap;
  Limit?: number;
  ConsistentRead?: boolean;
}

export interface ReadOutput {
  Items?: AttributeMap[];
  LastEvaluatedKey?: AttributeMap;
}

export interface TransactWriteInput {
  TransactItems: ({ Put: PutInput } | { Delete: DeleteInput })[];
}

export interface CreateTableInput {
  TableName: string;
  KeySchema: { AttributeName: string; KeyType: "HASH" | "RANGE" }[];
  AttributeDefinitions: { AttributeName: string; AttributeType: "S" }[];
  BillingMode: "PAY_PER_REQUEST";
}

export interface TableDescription {
  Table?: { TableStatus?: string };
}

export interface BatchGetInput {
  RequestItems: Record<
    string,
    { Keys: AttributeMap[]; ProjectionExpression?: string; ConsistentRead?: boolean }
  >;
}

export interface BatchGetOutput {
  Responses?: Record<string, AttributeMap[]>;
  UnprocessedKeys?: BatchGetInput["RequestItems"];
}

/** The client constructor's settings tablekit passes (see the SDK's DynamoDBClientConfig). */
export interface DynamoClientConfig {
  region?: string;
  endpoint?: string;
  credentials?: unknown;
  maxAttempts?: number;
}

/** A `DynamoDBClient`, or anything with its `send`: users may hand in their own. */
export interface DynamoClient {
  send(command: unknown, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  destroy?(): void;
  /** The client's middleware (the SDK's `MiddlewareStack`): tablekit removes one from its own clients. */
  readonly middlewareStack?: { remove(name: string): boolean };
}

type Command<I> = new (input: I) => unknown;

/** The module's exports tablekit uses. */
export interface DynamoSdkModule {
  DynamoDBClient: new (config: DynamoClientConfig) => DynamoClient;
  GetItemCommand: Command<GetInput>;
  PutItemCommand: Command<PutInput>;
  DeleteItemCommand: Command<DeleteInput>;
  QueryCommand: Command<ReadInput>;
  ScanCommand: Command<ReadInput>;
  TransactWriteItemsCommand: Command<TransactWriteInput>;
  BatchGetItemCommand: Command<BatchGetInput>;
  CreateTableCommand: Command<CreateTableInput>;
  DeleteTableCommand: Command<{ TableName: string }>;
  DescribeTableCommand: Command<{ TableName: string }>;
  ListTablesCommand: Command<{ ExclusiveStartTableName?: string; Limit?: number }>;
}

/** Loads the SDK; NotSupported with an install hint when it is missing. */
export async function loadDynamoSdk(): Promise<DynamoSdkModule> {
  // A variable specifier keeps bundlers and type checkers from resolving the optional package.
  const specifier = "@aws-sdk/client-dynamodb";
  try {
    return (await import(specifier)) as DynamoSdkModule;
  } catch (cause) {
    throw new TableKitError(
      "NotSupported",
      "The dynamodb: backend needs the AWS SDK v3 DynamoDB client: npm install @aws-sdk/client-dynamodb",
      { cause },
    );
  }
}

/** Typed calls over the client: one method per operation, each taking the caller's abort signal. */
export class DynamoDbApi {
  constructor(
    private readonly sdk: DynamoSdkModule,
    readonly client: DynamoClient,
  ) {}

  private send<I, O>(command: Command<I>, input: I, signal: AbortSignal | undefined): Promise<O> {
    return this.client.send(new command(input), signal ? { abortSignal: signal } : undefined) as Promise<O>;
  }

  getItem(input: GetInput, signal?: AbortSignal) {
    return this.send<GetInput, { Item?: AttributeMap }>(this.sdk.GetItemCommand, input, signal);
  }
  putItem(input: PutInput, signal?: AbortSignal) {
    return this.send<PutInput, unknown>(this.sdk.PutItemCommand, input, signal);
  }
  deleteItem(input: DeleteInput, signal?: AbortSignal) {
    return this.send<DeleteInput, unknown>(this.sdk.DeleteItemCommand, input, signal);
  }
  query(input: ReadInput, signal?: AbortSignal) {
    return this.send<ReadInput, ReadOutput>(this.sdk.QueryCommand, input, signal);
  }
  scan(input: ReadInput, signal?: AbortSignal) {
    return this.send<ReadInput, ReadOutput>(this.sdk.ScanCommand, input, signal);
  }
  transactWrite(input: TransactWriteInput, signal?: AbortSignal) {
    return this.send<TransactWriteInput, unknown>(this.sdk.TransactWriteItemsCommand, input, signal);
  }
  batchGet(input: BatchGetInput, signal?: AbortSignal) {
    return this.send<BatchGetInput, BatchGetOutput>(this.sdk.BatchGetItemCommand, input, signal);
  }
  createTable(input: CreateTableInput, signal?: AbortSignal) {
    return this.send<CreateTableInput, unknown>(this.sdk.CreateTableCommand, input, signal);
  }
  deleteTable(tableName: string, signal?: AbortSignal) {
    return this.send<{ TableName: string }, unknown>(
      this.sdk.DeleteTableCommand,
      { TableName: tableName },
      signal,
    );
  }
  describeTable(tableName: string, signal?: AbortSignal) {
    return this.send<{ TableName: string }, TableDescription>(
      this.sdk.DescribeTableCommand,
      { TableName: tableName },
      signal,
    );
  }
  listTables(input: { ExclusiveStartTableName?: string; Limit?: number }, signal?: AbortSignal) {
    return this.send<typeof input, { TableNames?: string[]; LastEvaluatedTableName?: string }>(
      this.sdk.ListTablesCommand,
      input,
      signal,
    );
  }
}
